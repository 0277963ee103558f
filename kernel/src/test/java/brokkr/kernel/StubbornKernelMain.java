package brokkr.kernel;

import brokkr.magics.MagicRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;

/**
 * A kernel process ({@link KernelServer}, as {@code kernel run} serves) with one more magic, {@code %stubborn},
 * which swallows every interrupt: what a shutdown must not wait for forever.
 */
public final class StubbornKernelMain {
    static final String STARTED = "stubborn magic started";

    public static void main(String[] args) throws Exception {
        KernelConnectionProperties props = KernelConnectionProperties.parse(Files.readString(Path.of(args[1])));
        MagicRegistry magics = MagicRegistry.standard()
                .line("stubborn", "%stubborn", "runs forever, ignoring interrupts", (s, a) -> {
                    System.out.println(STARTED);
                    while (true) {
                        try {
                            Thread.sleep(1000);
                        } catch (InterruptedException e) {
                            // stubborn on purpose
                        }
                    }
                });
        KernelServer.exit(
                KernelServer.serve(props, BrokkrKernelBuilder.builder().magics(magics), System.getenv()));
    }
}
