package brokkr.magics;

import brokkr.eval.Exploration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Tab completion inside a magic line: magic names after {@code %}, then the built-ins' arguments from
 * the session's state (domain names, task ids, splits, candidates, the fork's tools). Never loads or
 * forks anything: with no domain loaded, only the domain names are offered.
 */
public final class MagicCompletion {
    private MagicCompletion() {}

    /** Candidates replacing {@code line[start, cursor)}. */
    public record Result(List<String> matches, int start) {}

    /** Completes {@code line} (one line, starting with {@code %}) at {@code cursor}; null when it is not a magic line. */
    public static Result complete(Session s, String line, int cursor) {
        String head = line.substring(0, cursor);
        String trimmed = head.stripLeading();
        if (!trimmed.startsWith("%")) return null;
        int wordStart = head.lastIndexOf(' ') + 1;
        String word = head.substring(wordStart);
        if (!trimmed.contains(" ")) {
            boolean cell = trimmed.startsWith("%%");
            String typed = trimmed.replaceFirst("^%%?", "");
            List<String> names = s.magics().infos().stream()
                    .filter(i -> i.cell() == cell)
                    .map(MagicInfo::name)
                    .filter(n -> n.startsWith(typed))
                    .toList();
            return new Result(names, cursor - typed.length());
        }
        List<String> words = List.of(
                trimmed.substring(0, trimmed.length() - word.length()).strip().split("\\s+"));
        String magic = words.getFirst().replaceFirst("^%%?", "");
        String prev = words.getLast();
        Set<String> options = new LinkedHashSet<>();
        switch (magic) {
            case "help" -> s.magics().infos().forEach(i -> options.add(i.name()));
            case "domain" -> {
                if (words.size() == 1) options.add("load");
                else if (words.size() == 2 && prev.equals("load")) options.addAll(Benches.names(s.registry()));
            }
            case "task", "fork" -> {
                if (words.size() == 1) options.addAll(taskIds(s));
            }
            case "tasks" -> {
                if (prev.equals("--split")) options.addAll(splits(s));
                else options.add("--split");
            }
            case "run" -> {
                if (prev.equals("--candidate"))
                    options.addAll(loaded(s) ? s.domain().candidates() : List.of());
                else if (prev.equals("--task")) options.addAll(taskIds(s));
                else options.addAll(List.of("--candidate", "--task", "--harness", "--otel"));
            }
            case "call" -> {
                if (words.size() == 1 && loaded(s)) options.addAll(s.world().tools());
            }
            default -> {}
        }
        List<String> matches = new ArrayList<>();
        for (String o : options) if (o.startsWith(word)) matches.add(o);
        return new Result(matches, wordStart);
    }

    private static boolean loaded(Session s) {
        try {
            s.domain();
            return true;
        } catch (MagicUsageException e) {
            return false;
        }
    }

    private static List<String> taskIds(Session s) {
        return loaded(s)
                ? s.domain().tasks().stream().map(Exploration.TaskRow::id).toList()
                : List.of();
    }

    private static Set<String> splits(Session s) {
        Set<String> out = new LinkedHashSet<>();
        if (loaded(s)) s.domain().tasks().forEach(t -> out.addAll(t.splits()));
        return out;
    }
}
