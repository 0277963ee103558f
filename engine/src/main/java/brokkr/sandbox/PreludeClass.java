package brokkr.sandbox;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.lang.model.element.Modifier;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * A sandbox's prelude (JShell declarations the harness evaluates before the model's first snippet: the
 * tool methods and helpers of {@code brokkr.repl.JavaApi}) compiled once per distinct source into one
 * class, instead of one JShell compile per declaration in every episode.
 *
 * <p>Why: JShell compiles each declaration as a snippet of its own (an analysis and a generating javac
 * pass, ~10 ms of harness CPU each when warm), and a BFCL multi-turn prelude has 20-50 of them, so most of
 * an episode's CPU went to compiling the same prelude again (bench sandbox; {@code brokkr.repl.JavaApi}).
 * Here the declarations become the public static members of {@code REPL.Prelude_<hash>} (the
 * JShell source as a class body, each top-level declaration given {@code public static}), compiled by one
 * javac task, kept by source (a tau2 domain's or a multi-turn class set's prelude is compiled once per
 * harness process), loaded into the sandbox JVM like a snippet's classes and brought into scope by one
 * JShell snippet, {@code import static REPL.Prelude_<hash>.*;}. The model's code sees the same
 * names; its own declarations shadow them, as a redeclaration replaced them before.
 *
 * <p>Only declarations JShell would take as they are and a class body takes with {@code public static}
 * in front (no modifiers but {@code final}, no annotations) are compiled so; for any other source, or one
 * javac rejects, {@link #of} is empty and the prelude is evaluated as JShell snippets, as before.
 */
final class PreludeClass {
    /**
     * JShell's package: the snippets' classes and the prelude's are then one runtime package (one package, one
     * class loader in the sandbox JVM), so a prelude's package-private members are in the snippets' reach as
     * they were when the prelude was JShell snippets itself.
     */
    static final String PACKAGE = "REPL";

    /** A no-argument static method the harness invokes once the classes are loaded, so their static initializers run then, as a JShell prelude's did. */
    static final String INIT = "brokkr$init";

    private static final int KEPT = 512;

    /** Compiled preludes by source, least recently used dropped beyond {@value #KEPT}. */
    private static final Map<String, Optional<Compiled>> CACHE = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Optional<Compiled>> e) {
            return size() > KEPT;
        }
    };

    private PreludeClass() {}

    /**
     * A compiled prelude: {@code className} (binary name of the Prelude class) and every class file of it
     * (nested classes included) by binary name.
     */
    record Compiled(String className, Map<String, byte[]> classes) {
        String packageName() {
            return className.substring(0, className.lastIndexOf('.'));
        }

        /** The JShell snippet that brings its members into scope. */
        String importSnippet() {
            return "import static " + className + ".*;";
        }
    }

    /**
     * {@code code} compiled against {@code jar} (the sandbox's class path), from the cache when this
     * process compiled the same source before; empty when it is not a list of declarations a class body
     * takes as public static members, or does not compile.
     */
    static Optional<Compiled> of(String code, Path jar) {
        String key = jar + "\u0000" + code;
        synchronized (CACHE) {
            Optional<Compiled> c = CACHE.get(key);
            if (c != null) return c;
        }
        Optional<Compiled> c = compile(code, jar);
        synchronized (CACHE) {
            CACHE.put(key, c);
        }
        return c;
    }

    /**
     * File managers for compiling preludes against a jar, each used by one compilation at a time and kept for the next
     * (javac's tasks share a file manager as its own {@code Main} does; each task still gets a compiler context of its
     * own, so no symbol or class state passes from one prelude to another).
     *
     * <p>Why: a single-turn BFCL episode's prelude names its own tools, so it is compiled anew every episode, and a new
     * standard file manager per compilation (two: the parse and the compile) opened the jar's zip file system, found
     * the system modules and listed the JDK image's packages again (part of the ~16% of the harness's CPU that a
     * single-turn episode's prelude compilation took, JFR). Kept, the jar stays open and the image's listings come
     * from {@link SandboxClassPath.JdkImage}; each compilation still makes its own compiler context (symbol table,
     * the JDK classes it reads), which is most of what is left.
     */
    private static final Map<Path, java.util.concurrent.ConcurrentLinkedDeque<SandboxClassPath>> FILE_MANAGERS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static Optional<Compiled> compile(String code, Path jar) {
        var idle = FILE_MANAGERS.computeIfAbsent(jar, j -> new java.util.concurrent.ConcurrentLinkedDeque<>());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) return Optional.empty();
        SandboxClassPath fm = idle.pollFirst();
        if (fm == null) fm = SandboxClassPath.of(javac.getStandardFileManager(null, null, StandardCharsets.UTF_8), jar);
        try {
            return compile(javac, code, fm);
        } finally {
            idle.addFirst(fm);
        }
    }

    /** {@code code} compiled against {@code jar} in file managers of its own (as every compilation was before they were kept). */
    static Optional<Compiled> compileAlone(String code, Path jar) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) return Optional.empty();
        try (StandardJavaFileManager std = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            std.setLocationFromPaths(StandardLocation.CLASS_PATH, List.of(jar));
            return compile(javac, code, std);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** {@link #of}'s compilation, not from {@link #of}'s cache: in a kept file manager. */
    static Optional<Compiled> compileKept(String code, Path jar) {
        return compile(code, jar);
    }

    private static Optional<Compiled> compile(JavaCompiler javac, String code, StandardJavaFileManager std) {
        String pkg = PACKAGE;
        String simpleName = "Prelude_" + hash(code);
        String header = "package " + pkg + "; " + Sandbox.IMPORTS + " public final class " + simpleName + " { private "
                + simpleName + "() {} public static Object " + INIT + "() { return null; }\n";
        String members = staticMembers(javac, code, std);
        if (members == null) return Optional.empty();
        String source = header + members + "\n}\n";
        try {
            Map<String, byte[]> out = new LinkedHashMap<>();
            Map<String, ByteArrayOutputStream> streams = new LinkedHashMap<>();
            var fm = new ForwardingJavaFileManager<>(std) {
                @Override
                public ClassLoader getClassLoader(Location location) {
                    return SandboxClassPath.NO_PLUGINS; // as the sandbox's JShell compiles (SandboxClassPath says why)
                }

                @Override
                public JavaFileObject getJavaFileForOutput(
                        Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
                    return new SimpleJavaFileObject(
                            URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
                        @Override
                        public OutputStream openOutputStream() {
                            ByteArrayOutputStream b = new ByteArrayOutputStream();
                            streams.put(className, b);
                            return b;
                        }
                    };
                }
            };
            JavaFileObject src =
                    new SimpleJavaFileObject(
                            URI.create("string:///" + pkg.replace('.', '/') + "/" + simpleName + ".java"),
                            JavaFileObject.Kind.SOURCE) {
                        @Override
                        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                            return source;
                        }
                    };
            StringWriter diagnostics = new StringWriter();
            boolean ok = javac.getTask(diagnostics, fm, null, List.of("-proc:none", "-nowarn"), null, List.of(src))
                    .call();
            if (!ok) return Optional.empty();
            streams.forEach((name, b) -> out.put(name, b.toByteArray()));
            if (!out.containsKey(pkg + "." + simpleName)) return Optional.empty();
            return Optional.of(new Compiled(pkg + "." + simpleName, Map.copyOf(out)));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@link #staticMembers(JavaCompiler, String, StandardJavaFileManager)} in a file manager of its own. */
    static String staticMembers(JavaCompiler javac, String code) {
        try (StandardJavaFileManager std = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            return staticMembers(javac, code, std);
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The declarations of {@code code} with {@code public static } in front of each, or null when one is not a
     * plain method, class, interface, enum, record or variable declaration without modifiers (bar {@code final}).
     */
    static String staticMembers(JavaCompiler javac, String code, StandardJavaFileManager std) {
        String prefix = "class W {\n";
        String wrapped = prefix + code + "\n}\n";
        JavaFileObject src = new SimpleJavaFileObject(URI.create("string:///W.java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return wrapped;
            }
        };
        List<Object> errors = new ArrayList<>();
        List<? extends CompilationUnitTree> units;
        JavacTask task;
        // A plugin loader that sees nothing (javac's default one searched the harness's class path for plugins in this
        // parse too: SandboxClassPath#NO_PLUGINS).
        try {
            var fm = new ForwardingJavaFileManager<>(std) {
                @Override
                public ClassLoader getClassLoader(Location location) {
                    return SandboxClassPath.NO_PLUGINS;
                }
            };
            task = (JavacTask)
                    javac.getTask(new StringWriter(), fm, errors::add, List.of("-proc:none"), null, List.of(src));
            List<CompilationUnitTree> all = new ArrayList<>();
            task.parse().forEach(all::add);
            units = all;
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (units.size() != 1 || units.getFirst().getTypeDecls().size() != 1) return null;
        CompilationUnitTree unit = units.getFirst();
        if (!(unit.getTypeDecls().getFirst() instanceof ClassTree body)) return null;
        SourcePositions positions = com.sun.source.util.Trees.instance(task).getSourcePositions();
        Set<Long> starts = new TreeSet<>();
        for (Tree member : body.getMembers()) {
            ModifiersTree mods = switch (member) {
                case MethodTree m -> m.getReturnType() == null ? null : m.getModifiers(); // no constructors
                case ClassTree c -> c.getModifiers();
                case VariableTree v -> v.getModifiers();
                default -> null;
            };
            if (mods == null || !mods.getAnnotations().isEmpty()) return null;
            if (!mods.getFlags().isEmpty() && !mods.getFlags().equals(Set.of(Modifier.FINAL))) return null;
            if (member instanceof MethodTree m && !m.getTypeParameters().isEmpty()) return null;
            long start = positions.getStartPosition(unit, member);
            // `int a, b;` is two trees at one position: one prefix would make only the first static.
            if (start < prefix.length() || !starts.add(start)) return null;
        }
        // A parse error javac recovered from (a statement among the declarations) leaves a tree that compiles to
        // something else.
        if (!errors.isEmpty()) return null;
        StringBuilder out = new StringBuilder(code);
        List<Long> at = new ArrayList<>(starts);
        for (int i = at.size() - 1; i >= 0; i--) out.insert((int) (at.get(i) - prefix.length()), "public static ");
        return out.toString();
    }

    private static String hash(String code) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(code.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
