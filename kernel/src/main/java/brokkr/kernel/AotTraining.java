package brokkr.kernel;

import brokkr.cli.Main;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * The training run of the launcher's AOT cache ({@code ./brokkr} makes it once per build with
 * {@code -XX:AOTCacheOutput}, JDK 25 JEP 514): what a start does first, in one JVM, so the cache holds
 * those classes loaded and linked, and their profiles (JEP 515). The CLI's {@code help} (every family and
 * command constructed, as any command does first) and {@code --version}; a kernel built as {@code kernel
 * run} builds it, its Java session started and warmed up (javac and JShell: most of a kernel's start),
 * a Java cell and {@code %domain load tau2-retail} (the tau2 data read and verified). Output goes nowhere;
 * a step that fails (no tau2 data on this machine) leaves the cache with less in it, never broken.
 */
public final class AotTraining {
    private AotTraining() {}

    public static void main(String[] args) {
        PrintStream none = new PrintStream(OutputStream.nullOutputStream());
        Main.run(List.of("help"), none, none);
        Main.run(List.of("--version"), none, none);
        BrokkrKernel kernel = BrokkrKernelBuilder.builder().build();
        for (String cell : List.of("var $aot = java.util.List.of(1, 2).size() + 1;", "%domain load tau2-retail")) {
            try {
                kernel.cells().eval(cell, shown -> {});
            } catch (RuntimeException e) {
                System.err.println("AOT training: " + cell + ": " + e);
            }
        }
        System.exit(0); // the kernel's threads (JShell, its indexing) are not waited for
    }
}
