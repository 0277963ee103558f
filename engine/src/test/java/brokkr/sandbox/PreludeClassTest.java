package brokkr.sandbox;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.conversation.ToolSpec;
import brokkr.repl.JavaApi;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * A prelude compiled once as a class ({@link PreludeClass}) behaves in the REPL as the same prelude evaluated
 * as JShell snippets: the same results for the same snippets, its initializers run at prelude time, the
 * model's declarations shadow its names, and it is there again after a reset.
 */
class PreludeClassTest {
    private static final SandboxConfig CONFIG = SandboxConfig.DEFAULT.withEvalTimeout(Duration.ofSeconds(20));

    private static final String PRELUDE = """
            Map<String, Object> map(Object... keysAndValues) { return brokkr.sandbox.SandboxBridge.map(keysAndValues); }
            String lookup(Map<String, ?> args) { return brokkr.sandbox.SandboxBridge.call("lookup", new LinkedHashMap<String, Object>(args)); }
            final class Tools { static int hidden() { return 41; } int counter; }
            Tools tools = new Tools();
            int preludeValue = 7;
            String boom() { throw new IllegalStateException("boom"); }
            """;

    private static final List<String> SNIPPETS = List.of(
            "lookup(map(\"id\", 1, \"name\", \"x\"))",
            "Tools.hidden() + 1",
            "tools.counter++; tools.counter++; tools.counter",
            "preludeValue * 6",
            "preludeValue = 8; preludeValue",
            "var t = new Tools(); t.counter",
            "String lookup(Map<String, ?> args) { return \"mine\"; }",
            "lookup(map())",
            "int twice(int x) { return 2 * x; } twice(preludeValue)",
            "Integer.parseInt(\"x\")",
            "undefinedThing + 1");

    private static final Sandbox.CallHandler CALLS = (name, args) -> name + " " + args;

    private static List<String> results(boolean precompiled) {
        String before = System.getProperty("brokkr.sandbox.precompile");
        System.setProperty("brokkr.sandbox.precompile", String.valueOf(precompiled));
        try (Sandbox s = Sandbox.start(CONFIG)) {
            s.prelude(PRELUDE, CALLS);
            List<String> out = new ArrayList<>();
            for (String code : SNIPPETS) {
                Sandbox.EvalResult r = s.evaluate(code, CALLS);
                out.add(code + " -> " + r.output() + " | " + r.value() + " | "
                        + (r.error() == null ? "ok" : r.error().kind()));
            }
            return out;
        } finally {
            if (before == null) System.clearProperty("brokkr.sandbox.precompile");
            else System.setProperty("brokkr.sandbox.precompile", before);
        }
    }

    @Test
    void aPrecompiledPreludeGivesTheSameResultsAsItsJShellSnippets() {
        assertEquals(results(false), results(true));
    }

    @Test
    void thePreludeIsCompiledAsAClassAndIsThereAgainAfterAReset() {
        try (Sandbox s = Sandbox.start(CONFIG)) {
            s.prelude(PRELUDE, CALLS);
            // A stack trace through a prelude method names the prelude's class: it was not compiled as snippets.
            Sandbox.EvalResult boom = s.evaluate("boom()", CALLS);
            assertEquals(Sandbox.Kind.EXCEPTION, boom.error().kind());
            assertTrue(
                    boom.error().message().contains("at REPL.Prelude_"),
                    boom.error().message());
            assertEquals(
                    "8", s.evaluate("preludeValue = 8; preludeValue", CALLS).value());
            Sandbox.EvalResult exit = s.evaluate("System.exit(3)", CALLS);
            assertTrue(exit.reset(), String.valueOf(exit));
            // A fresh JVM: the prelude again, as it was first (not as the last episode left it).
            assertEquals("7", s.evaluate("preludeValue", CALLS).value());
            Sandbox.EvalResult call = s.evaluate("lookup(map(\"id\", 2))", CALLS);
            assertEquals("\"lookup {id=2}\"", call.value(), String.valueOf(call.error()));
        }
    }

    @Test
    void aPreludesInitializersRunAtPreludeTime() {
        List<String> made = new ArrayList<>();
        try (Sandbox s = Sandbox.start(CONFIG)) {
            s.prelude(
                    "String fromInit = brokkr.sandbox.SandboxBridge.call(\"init\", new LinkedHashMap<String, Object>());",
                    (name, args) -> {
                        made.add(name);
                        return "made";
                    });
            assertEquals(List.of("init"), made);
            assertEquals("\"made\"", s.evaluate("fromInit", CALLS).value());
        }
    }

    @Test
    void twoPreludesOfOneEpisodeAndAJavaApiCompileAsClasses() {
        ToolSpec t = new ToolSpec(
                "get_order",
                "Gets an order.",
                PyDict.of(
                        "type",
                        "object",
                        "properties",
                        PyDict.of("id", PyDict.of("type", "string", "description", "the order")),
                        "required",
                        PyList.of(List.of(new PyStr("id")))));
        JavaApi ns = JavaApi.namespace("shop", "ShopTools", List.of(t));
        assertTrue(PreludeClass.of(ns.source(), SandboxImage.get().jar()).isPresent(), ns.source());
        try (Sandbox s = Sandbox.start(CONFIG)) {
            s.prelude(ns.source(), CALLS);
            s.prelude(JavaApi.recorderMethods(List.of(t)).source(), CALLS);
            assertEquals(
                    "\"get_order {id=#1}\"",
                    s.evaluate("shop.get_order(\"#1\")", CALLS).value());
            assertEquals(
                    "\"get_order {id=#2}\"",
                    s.evaluate("get_order(map(\"id\", \"#2\"))", CALLS).value());
            assertTrue(s.evaluate("shop.doc(\"get_order\")", CALLS).value().contains("Gets an order."));
        }
    }

    @Test
    void onlyPlainDeclarationsAreMadeStaticMembers() {
        var javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(
                "public static int f() { return 1; }\npublic static final class A {}\npublic static int x = 2;",
                PreludeClass.staticMembers(javac, "int f() { return 1; }\nfinal class A {}\nint x = 2;"));
        for (String refused : List.of(
                "System.out.println(1);",
                "static int f() { return 1; }",
                "private int x;",
                "int a = 1, b = 2;",
                "@Deprecated int f() { return 1; }",
                "<T> T id(T t) { return t; }",
                "int f() { return 1; } f();")) {
            assertNull(PreludeClass.staticMembers(javac, refused), refused);
        }
        assertNotNull(PreludeClass.of("int y = 3;", SandboxImage.get().jar()).orElse(null));
        assertTrue(PreludeClass.of("int y = undefinedName;", SandboxImage.get().jar())
                .isEmpty());
    }

    /**
     * A prelude compiled in a kept file manager ({@code PreludeClass}'s, reused by every compilation against a jar) is
     * what it was in file managers of its own: the same class names and the same bytes, for preludes of different
     * tools in turn, with ones that do not compile (an undefined name, a statement) and one that shadows a JDK class
     * between them, so nothing one compilation saw is seen by the next.
     */
    @Test
    void aPreludeCompiledInAKeptFileManagerIsTheSameAsAlone() {
        var jar = SandboxImage.get().jar();
        List<String> preludes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ToolSpec t = new ToolSpec(
                    "find_" + i,
                    "Finds " + i + ".",
                    PyDict.of(
                            "type",
                            "object",
                            "properties",
                            PyDict.of("id", PyDict.of("type", "string", "description", "the id")),
                            "required",
                            PyList.of(List.of(new PyStr("id")))));
            preludes.add(JavaApi.recorderMethods(List.of(t)).source());
            preludes.add(i % 2 == 0 ? "int broken" + i + " = undefinedName;" : "System.out.println(" + i + ");");
            preludes.add("class String { int n = " + i + "; } String made" + i + "() { return new String(); }");
        }
        preludes.add(PRELUDE);
        for (String code : preludes) {
            var alone = PreludeClass.compileAlone(code, jar);
            var kept = PreludeClass.compileKept(code, jar);
            assertEquals(alone.isPresent(), kept.isPresent(), code);
            if (alone.isEmpty()) continue;
            assertEquals(alone.get().className(), kept.get().className(), code);
            assertEquals(alone.get().classes().keySet(), kept.get().classes().keySet(), code);
            alone.get()
                    .classes()
                    .forEach((name, bytes) ->
                            assertArrayEquals(bytes, kept.get().classes().get(name), code + ": " + name));
        }
        assertTrue(PreludeClass.compileKept(preludes.get(0), jar).isPresent());
        assertTrue(PreludeClass.compileKept(preludes.get(1), jar).isEmpty());
    }
}
