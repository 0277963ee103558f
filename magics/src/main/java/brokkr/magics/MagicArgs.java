package brokkr.magics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A magic's arguments: the raw rest of the line (for magics that take JSON, like {@code %call}) and its
 * shell-like words (double or single quotes group, a backslash escapes), parsed into {@code --flag value}
 * options and positionals on request.
 */
public record MagicArgs(String raw, List<String> words) {
    public MagicArgs {
        raw = raw == null ? "" : raw.strip();
        words = List.copyOf(words);
    }

    public static MagicArgs of(String raw) {
        return new MagicArgs(raw, split(raw == null ? "" : raw));
    }

    public static MagicArgs of(String... words) {
        return new MagicArgs(String.join(" ", words), List.of(words));
    }

    public boolean isEmpty() {
        return words.isEmpty();
    }

    /** Options given as {@code --name value} or {@code --name=value}, and the positionals, in order. */
    public record Parsed(Map<String, String> options, List<String> positionals) {
        public String option(String name) {
            return options.get(name);
        }

        public String option(String name, String dflt) {
            return options.getOrDefault(name, dflt);
        }

        public String positional(int i) {
            return i < positionals.size() ? positionals.get(i) : null;
        }
    }

    /** Parses against the allowed option names (without dashes); an unknown option or a missing value is a usage error. */
    public Parsed parse(Set<String> allowed, int maxPositionals) {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> positionals = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.startsWith("--") && w.length() > 2) {
                int eq = w.indexOf('=');
                String name = eq < 0 ? w.substring(2) : w.substring(2, eq);
                if (!allowed.contains(name)) throw new MagicUsageException("unknown option --" + name);
                String value;
                if (eq >= 0) value = w.substring(eq + 1);
                else if (i + 1 < words.size()) value = words.get(++i);
                else throw new MagicUsageException("--" + name + " needs a value");
                if (options.putIfAbsent(name, value) != null)
                    throw new MagicUsageException("--" + name + " given twice");
            } else {
                positionals.add(w);
            }
        }
        if (positionals.size() > maxPositionals) {
            throw new MagicUsageException("unexpected argument '" + positionals.get(maxPositionals) + "'");
        }
        return new Parsed(options, positionals);
    }

    static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
                else if (c == '\\' && quote == '"' && i + 1 < s.length()) cur.append(s.charAt(++i));
                else cur.append(c);
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < s.length()) {
                cur.append(s.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) out.add(cur.toString());
                cur.setLength(0);
                inWord = false;
            } else {
                cur.append(c);
                inWord = true;
            }
        }
        if (quote != 0) throw new MagicUsageException("unbalanced quote in arguments");
        if (inWord) out.add(cur.toString());
        return out;
    }
}
