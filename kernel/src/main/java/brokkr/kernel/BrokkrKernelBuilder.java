package brokkr.kernel;

import brokkr.magics.MagicRegistry;
import brokkr.magics.Session;
import java.nio.charset.Charset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.dflib.jjava.jupyter.kernel.BaseKernelBuilder;
import org.dflib.jjava.jupyter.kernel.HelpLink;
import org.dflib.jjava.jupyter.kernel.LanguageInfo;
import org.dflib.jjava.jupyter.kernel.display.Renderer;

/**
 * Builds a {@link BrokkrKernel}, JJava style: self-typed setters and overridable {@code build*} hooks
 * (renderer, magics, session, evaluator), so an embedding can swap any part.
 */
public class BrokkrKernelBuilder extends BaseKernelBuilder<BrokkrKernelBuilder, BrokkrKernel> {
    public static final String JAVA_VERSION = String.valueOf(Runtime.version().feature());

    protected MagicRegistry magics;
    protected boolean warmUp = true;

    public static BrokkrKernelBuilder builder() {
        return new BrokkrKernelBuilder();
    }

    public BrokkrKernelBuilder magics(MagicRegistry magics) {
        this.magics = magics;
        return this;
    }

    /** Whether to compile a first snippet in the background at start-up (default true). */
    public BrokkrKernelBuilder warmUp(boolean warmUp) {
        this.warmUp = warmUp;
        return this;
    }

    @Override
    public BrokkrKernel build() {
        Session session = buildSession();
        Future<CellEvaluator> cells = buildCellEvaluator(session);
        return new BrokkrKernel(
                buildName(),
                buildVersion(),
                buildLanguageInfo(),
                buildHelpLinks(),
                buildSessionHistory(),
                (BrokkrIO) buildJupyterIO(buildJupyterIOEncoding()),
                buildCommManager(),
                buildRenderer(),
                buildExtensionsEnabled(),
                buildErrorStyler(),
                session,
                cells);
    }

    @Override
    protected String buildName() {
        return name != null ? name : "brokkr";
    }

    @Override
    protected String buildVersion() {
        return version != null ? version : "0.1.0";
    }

    @Override
    protected BrokkrIO buildJupyterIO(Charset encoding) {
        return new BrokkrIO(encoding);
    }

    /**
     * JJava's registry with Brokkr's renderers (tables, charts, rich values) and readable text for the rest
     * (arrays, records: {@link ReadableValues}); users add theirs to the same one.
     */
    @Override
    protected Renderer buildRenderer() {
        return ReadableValues.renderer();
    }

    protected LanguageInfo buildLanguageInfo() {
        return new LanguageInfo(
                "java", Runtime.version().toString(), "text/x-java-source", ".jshell", "java", "java", "script");
    }

    protected List<HelpLink> buildHelpLinks() {
        return List.of(new HelpLink(
                "Java " + JAVA_VERSION + " API",
                "https://docs.oracle.com/en/java/javase/" + JAVA_VERSION + "/docs/api/"));
    }

    protected SessionHistory buildSessionHistory() {
        return new SessionHistory();
    }

    protected MagicRegistry buildMagics() {
        return magics != null ? magics : MagicRegistry.standard();
    }

    protected Session buildSession() {
        return new Session(buildMagics());
    }

    /** The JShell session, started on a background thread (see {@link BrokkrKernel}). */
    protected Future<CellEvaluator> buildCellEvaluator(Session session) {
        return CompletableFuture.supplyAsync(
                () -> {
                    JShellEvaluator java = new JShellEvaluator(List.of("static brokkr.kernel.Notebook.*"));
                    if (warmUp) java.warmUp();
                    return new CellEvaluator(java, session);
                },
                r -> Thread.ofPlatform()
                        .name("brokkr-jshell-start")
                        .daemon(true)
                        .start(r));
    }
}
