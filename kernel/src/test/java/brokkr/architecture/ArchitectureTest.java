package brokkr.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layout's rules, checked on the compiled main classes of every module (this module's test class
 * path holds them all): no package cycles anywhere, and each module depends only downwards
 * (engine knows no benchmark and no UI; magics knows no domain; only the kernel sees everything).
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // The engine's test fixtures come as a test-jar, which DO_NOT_INCLUDE_TESTS does not recognise.
                .withImportOption(location -> !location.contains("-tests.jar") && !location.contains("/test-classes/"))
                .importPackages("brokkr");
    }

    @Test
    void everyModulesClassesWereImported() {
        // A rule over an empty import passes vacuously: make sure each module is really there.
        for (String pkg : new String[] {"brokkr.eval", "brokkr.domains.tau2.runner", "brokkr.domains.bfcl", "brokkr.magics", "brokkr.cli", "brokkr.bench"}) {
            if (classes.stream().noneMatch(c -> c.getPackageName().equals(pkg))) {
                throw new AssertionError("no main classes of " + pkg + " were imported");
            }
        }
    }

    @Test
    void noPackageCycles() {
        slices().matching("brokkr.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void engineKnowsNoBenchmarkAndNoUi() {
        noClasses().that().resideInAnyPackage(EnginePackages.ALL)
                .should().dependOnClassesThat().resideInAnyPackage("brokkr.domains..", "brokkr.magics..", "brokkr.kernel..", "brokkr.cli..", "brokkr.bench..")
                .orShould().dependOnClassesThat().resideInAnyPackage("tech.tablesaw..", "me.tongfei..", "org.knowm.xchart..", "org.dflib..", "org.jline..")
                .check(classes);
    }

    @Test
    void domainsKnowNoUi() {
        noClasses().that().resideInAPackage("brokkr.domains..")
                .should().dependOnClassesThat().resideInAnyPackage("brokkr.magics..", "brokkr.kernel..", "brokkr.cli..", "brokkr.bench..",
                        "tech.tablesaw..", "me.tongfei..", "org.knowm.xchart..", "org.dflib..", "org.jline..")
                .check(classes);
    }

    @Test
    void magicsKnowNoDomain() {
        noClasses().that().resideInAPackage("brokkr.magics..")
                .should().dependOnClassesThat().resideInAnyPackage("brokkr.domains..", "brokkr.kernel..", "brokkr.cli..")
                .check(classes);
    }

    /**
     * The Python runtime is one package tree in the engine: its value semantics ({@code brokkr.python})
     * need nothing of Brokkr but the value model, and know nothing of source text; the parser and
     * evaluator ({@code brokkr.python.source}) build on them. A concept of the runtime has one class,
     * there: no domain grows its own parser, evaluator or builtins beside it.
     */
    @Test
    void thePythonRuntimeIsOneLayeredPackageTree() {
        classes().that().resideInAPackage("brokkr.python")
                .should().onlyDependOnClassesThat().resideInAnyPackage("brokkr.python", "brokkr.value", "java..", "org.pcollections..")
                .check(classes);
        classes().that().resideInAPackage("brokkr.python.source")
                .should().onlyDependOnClassesThat().resideInAnyPackage("brokkr.python..", "brokkr.value", "java..", "org.pcollections..")
                .check(classes);
        classes().that().haveNameMatching(".*\\.Py(Parser|Eval|Expr|Literals|Builtins|Repr|ObjectOps|Objects|Hash|SetOrder|ArgumentBinding)")
                .should().resideInAPackage("brokkr.python..")
                .check(classes);
    }

    /**
     * The sandbox JVM's class path is a jar of four classes (brokkr.sandbox.SandboxImage): they may use
     * the JDK and each other, nothing else of Brokkr, or a sandbox would fail on a class it cannot load.
     */
    @Test
    void theSandboxJvmsClassesNeedOnlyTheJdkAndEachOther() {
        String own = "brokkr\\.sandbox\\.(SandboxAgent|SandboxWire|SandboxBridge|MiniJson)(\\$.*)?";
        classes().that().haveNameMatching(own)
                .should().onlyDependOnClassesThat(JavaClass.Predicates.resideInAnyPackage("java..", "jdk.jshell..")
                        .or(HasName.Predicates.nameMatching(own)))
                .check(classes);
    }

    /**
     * The CLI's tau2 commands are thin: from a command to a grade the path runs through the registry's
     * provider ({@code tau2.runner}) and the engine's contracts, never into the orchestrator, grader,
     * environment or scripted sides directly (conformance replay is its own entry point).
     */
    @Test
    void theCliReachesTau2OnlyThroughItsRunnerAndConformance() {
        noClasses().that().resideInAPackage("brokkr.cli..")
                .should().dependOnClassesThat().resideInAnyPackage("brokkr.domains.tau2.orchestrator..", "brokkr.domains.tau2.evaluator..",
                        "brokkr.domains.tau2.environment..", "brokkr.domains.tau2.agent..", "brokkr.domains.tau2.user..",
                        "brokkr.domains.tau2.retail..", "brokkr.domains.tau2.airline..", "brokkr.domains.tau2.telecom..")
                .check(classes);
    }

    /** The engine module's packages (it has no common prefix of its own: its packages are brokkr's top level). */
    static final class EnginePackages {
        static final String[] ALL = {"brokkr.value", "brokkr.python..", "brokkr.tool", "brokkr.world", "brokkr.conversation",
                "brokkr.provider..", "brokkr.agent", "brokkr.data", "brokkr.eval", "brokkr.experiment", "brokkr.stats", "brokkr.sandbox",
                "brokkr.repl"};
    }
}
