package brokkr.kernel;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.dflib.jjava.jupyter.kernel.history.HistoryEntry;
import org.dflib.jjava.jupyter.kernel.history.HistoryManager;

/** The inputs of this kernel session, for {@code history_request} (tail, range and glob search; session 0 is this one). */
final class SessionHistory implements HistoryManager {
    private final List<HistoryEntry> entries = new ArrayList<>();

    synchronized void add(int cell, String input) {
        entries.add(new HistoryEntry(0, cell, input, null));
    }

    @Override
    public synchronized List<HistoryEntry> lookupTail(int length, Set<ResultFlag> flags) {
        int from = Math.max(0, entries.size() - Math.max(0, length));
        return List.copyOf(entries.subList(from, entries.size()));
    }

    @Override
    public synchronized List<HistoryEntry> lookupRange(int session, int start, int end, Set<ResultFlag> flags) {
        if (session != 0) return List.of();
        return entries.stream()
                .filter(e -> e.getCellNumber() >= start && (end <= 0 || e.getCellNumber() < end))
                .toList();
    }

    @Override
    public synchronized List<HistoryEntry> search(String glob, int length, Set<ResultFlag> flags) {
        Pattern p = Pattern.compile(
                glob.replace("\\", "\\\\")
                        .replace(".", "\\.")
                        .replace("*", ".*")
                        .replace("?", "."),
                Pattern.DOTALL);
        List<HistoryEntry> hits =
                entries.stream().filter(e -> p.matcher(e.getInput()).matches()).toList();
        if (flags.contains(ResultFlag.UNIQUE)) {
            Set<String> seen = new LinkedHashSet<>();
            List<HistoryEntry> unique = new ArrayList<>();
            for (int i = hits.size() - 1; i >= 0; i--)
                if (seen.add(hits.get(i).getInput())) unique.addFirst(hits.get(i));
            hits = unique;
        }
        return length > 0 && hits.size() > length ? hits.subList(hits.size() - length, hits.size()) : hits;
    }
}
