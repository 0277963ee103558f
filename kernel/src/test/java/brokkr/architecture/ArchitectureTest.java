package brokkr.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.domain.properties.HasOwner;
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
        for (String pkg : new String[] {
            "brokkr.eval",
            "brokkr.run",
            "brokkr.domains.tau2.runner",
            "brokkr.domains.bfcl",
            "brokkr.render",
            "brokkr.magics",
            "brokkr.cli",
            "brokkr.kernel",
            "brokkr.family",
            "brokkr.domains.tau2.cli"
        }) {
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
        noClasses()
                .that()
                .resideInAnyPackage(EnginePackages.ALL)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "brokkr.domains..", "brokkr.magics..", "brokkr.kernel..", "brokkr.cli..", "brokkr.bench..")
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "tech.tablesaw..", "me.tongfei..", "org.knowm.xchart..", "org.dflib..", "org.jline..")
                .check(classes);
    }

    @Test
    void domainsKnowNoUi() {
        noClasses()
                .that()
                .resideInAPackage("brokkr.domains..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "brokkr.magics..",
                        "brokkr.kernel..",
                        "brokkr.cli..",
                        "brokkr.bench..",
                        "tech.tablesaw..",
                        "me.tongfei..",
                        "org.knowm.xchart..",
                        "org.dflib..",
                        "org.jline..")
                .check(classes);
    }

    @Test
    void magicsKnowNoDomain() {
        noClasses()
                .that()
                .resideInAPackage("brokkr.magics..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("brokkr.domains..", "brokkr.kernel..", "brokkr.cli..")
                .check(classes);
    }

    /**
     * What the CLI and the notebook both show renders without the notebook: no magic, no kernel, no
     * notebook library (jjava, Tablesaw); XChart only for the charts.
     */
    @Test
    void renderKnowsNoNotebook() {
        noClasses()
                .that()
                .resideInAPackage("brokkr.render..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "brokkr.domains..",
                        "brokkr.magics..",
                        "brokkr.kernel..",
                        "brokkr.cli..",
                        "brokkr.bench..",
                        "tech.tablesaw..",
                        "me.tongfei..",
                        "org.dflib..",
                        "org.jline..")
                .check(classes);
    }

    /**
     * The CLI does not depend on the notebook module nor the kernel (their commands come as a CommandSet
     * service), nor on the benchmarks (not on the product class path), nor on a library only the notebook
     * or the benchmarks use: a headless command loads none of them (HeadlessClassLoadingTest).
     */
    @Test
    void theCliDependsOnNoNotebookKernelOrBenchmark() {
        noClasses()
                .that()
                .resideInAPackage("brokkr.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "brokkr.magics..",
                        "brokkr.kernel..",
                        "brokkr.bench..",
                        "tech.tablesaw..",
                        "org.knowm.xchart..",
                        "org.dflib..",
                        "org.openjdk.jmh..",
                        "jdk.jshell..")
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
        classes()
                .that()
                .resideInAPackage("brokkr.python")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("brokkr.python", "brokkr.value", "java..", "org.pcollections..")
                .check(classes);
        classes()
                .that()
                .resideInAPackage("brokkr.python.source")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("brokkr.python..", "brokkr.value", "java..", "org.pcollections..")
                .check(classes);
        classes()
                .that()
                .haveNameMatching(
                        ".*\\.Py(Parser|Eval|Expr|Literals|Builtins|Repr|ObjectOps|Objects|Hash|SetOrder|ArgumentBinding)")
                .should()
                .resideInAPackage("brokkr.python..")
                .check(classes);
    }

    /**
     * The sandbox JVM's class path is a jar of four classes (brokkr.sandbox.SandboxImage): they may use
     * the JDK and each other, nothing else of Brokkr, or a sandbox would fail on a class it cannot load.
     */
    @Test
    void theSandboxJvmsClassesNeedOnlyTheJdkAndEachOther() {
        String own = "brokkr\\.sandbox\\.(SandboxAgent|SandboxWire|SandboxBridge|MiniJson)(\\$.*)?";
        classes()
                .that()
                .haveNameMatching(own)
                .should()
                .onlyDependOnClassesThat(JavaClass.Predicates.resideInAnyPackage("java..", "jdk.jshell..")
                        .or(HasName.Predicates.nameMatching(own)))
                .check(classes);
    }

    /**
     * The CLI names no benchmark family: what a family brings (commands, data pins, conformance corpora, result
     * formats, upstream revisions) comes through {@code brokkr.family.BenchmarkFamily} services.
     */
    @Test
    void theCliDependsOnNoDomain() {
        noClasses()
                .that()
                .resideInAPackage("brokkr.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("brokkr.domains..")
                .check(classes);
    }

    /**
     * Domains never touch an experiment store: a family's result format receives and returns attempts, and the
     * CLI reads and writes the store ({@code brokkr.family.StoredResults}). Nor do they schedule cells: a
     * benchmark (everything but a family's command-line face, its {@code cli} package) knows neither the runner
     * nor the planner; a family's commands submit their cells through them like every other face.
     */
    @Test
    void domainsTouchNoStoreAndNoRunner() {
        String store =
                "brokkr\\.experiment\\.(ExperimentStore|ExperimentQuery|StoreConnection|StoreViews|ProbeStore|EvidenceCodec|SqliteLibrary"
                        + "|StoreSink|Inspect|BenchmarkReports|Experiments|StoredBranches|Regrade|Probes)(\\$.*)?|brokkr\\.family\\.StoredResults(\\$.*)?";
        noClasses()
                .that()
                .resideInAPackage("brokkr.domains..")
                .should()
                .dependOnClassesThat(HasName.Predicates.nameMatching(store))
                .check(classes);
        noClasses()
                .that()
                .resideInAPackage("brokkr.domains..")
                .and()
                .resideOutsideOfPackage("brokkr.domains..cli..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("brokkr.run..")
                .orShould()
                .dependOnClassesThat(HasName.Predicates.nameMatching("brokkr\\.experiment\\.Planner(\\$.*)?"))
                .check(classes);
    }

    /**
     * One evaluation path, one runner: only {@code brokkr.run.Runner} calls {@code Evaluation.evaluate} (the
     * evaluation's own overloads aside), so every face gets the runner's threads, gates, timeouts, cancellation
     * and cache, and no face runs a cell some other way.
     */
    @Test
    void onlyTheRunnerCallsEvaluate() {
        noClasses()
                .that()
                .haveNameNotMatching("brokkr\\.run\\.Runner(\\$.*)?|brokkr\\.eval\\.Evaluation(\\$.*)?")
                .should()
                .callMethodWhere(JavaCall.Predicates.target(
                                HasOwner.Predicates.With.owner(HasName.Predicates.name("brokkr.eval.Evaluation")))
                        .and(JavaCall.Predicates.target(HasName.Predicates.name("evaluate"))))
                .check(classes);
    }

    /**
     * The tau2 family's commands are thin: from a command to a grade the path runs through the registry's
     * provider ({@code tau2.runner}) and the engine's contracts, never into the orchestrator, grader,
     * environment or scripted sides directly (conformance replay is its own entry point).
     */
    @Test
    void theTau2CommandsReachTau2OnlyThroughItsRunnerAndConformance() {
        noClasses()
                .that()
                .resideInAPackage("brokkr.domains.tau2.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "brokkr.domains.tau2.orchestrator..",
                        "brokkr.domains.tau2.evaluator..",
                        "brokkr.domains.tau2.environment..",
                        "brokkr.domains.tau2.agent..",
                        "brokkr.domains.tau2.user..",
                        "brokkr.domains.tau2.retail..",
                        "brokkr.domains.tau2.airline..",
                        "brokkr.domains.tau2.telecom..")
                .check(classes);
    }

    /** The engine module's packages (it has no common prefix of its own: its packages are brokkr's top level). */
    static final class EnginePackages {
        static final String[] ALL = {
            "brokkr.value",
            "brokkr.python..",
            "brokkr.tool",
            "brokkr.world",
            "brokkr.conversation",
            "brokkr.provider..",
            "brokkr.agent",
            "brokkr.data",
            "brokkr.eval",
            "brokkr.run",
            "brokkr.command",
            "brokkr.family",
            "brokkr.experiment",
            "brokkr.stats",
            "brokkr.sandbox",
            "brokkr.repl",
            "brokkr.mcp",
            "brokkr.http",
            "brokkr.env"
        };
    }
}
