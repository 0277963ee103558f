package brokkr.sandbox;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * The compile side's class path of a sandbox's JShell: the sandbox JVM's own (its image's jar and what
 * was added since), never the harness's.
 *
 * <p>Why: JShell's compiler starts from the harness JVM's {@code java.class.path}
 * ({@code jdk.jshell.TaskFactory}'s {@code classpath} field; {@code addToClasspath} appends to it), and
 * javac opens and indexes every jar on it (each a zip file system, following manifest {@code Class-Path}
 * entries) once per JShell, that is once per episode: under Surefire or the launcher, some 70 jars, about
 * half the harness's CPU per episode (bench sandbox). It also let a snippet compile against classes the
 * sandbox JVM does not have (Jackson, the harness's own), which then failed at run time with
 * {@code NoClassDefFoundError}; now they are compile errors, as the sandbox sees them.
 */
final class SandboxClassPath extends ForwardingJavaFileManager<StandardJavaFileManager>
        implements StandardJavaFileManager {
    private static final Set<String> CLASS_PATH_OPTIONS = Set.of("-classpath", "-cp", "--class-path");

    private final Set<String> harness;
    /** Precompiled preludes' class files ({@link PreludeClass}) by package: on the class path beside the jar. */
    private final Map<String, List<JavaFileObject>> preludes = new ConcurrentHashMap<>();

    private SandboxClassPath(StandardJavaFileManager fileManager, Path jar) {
        super(fileManager);
        this.harness = new LinkedHashSet<>(entries(System.getProperty("java.class.path", "")));
        try {
            fileManager.setLocationFromPaths(StandardLocation.CLASS_PATH, List.of(jar));
        } catch (IOException e) {
            throw new UncheckedIOException("could not set the sandbox's compile class path: " + e.getMessage(), e);
        }
    }

    /** {@code fileManager} compiling against {@code jar} only (a {@code JShell.Builder.fileManager} mapping). */
    static SandboxClassPath of(StandardJavaFileManager fileManager, Path jar) {
        return new SandboxClassPath(fileManager, jar);
    }

    private static List<String> entries(String path) {
        List<String> out = new ArrayList<>();
        for (String e : path.split(File.pathSeparator)) if (!e.isBlank()) out.add(e);
        return out;
    }

    /** A class-path option (JShell's addToClasspath: the harness's class path and what was added) keeps only what was added. */
    @Override
    public boolean handleOption(String current, Iterator<String> remaining) {
        if (!CLASS_PATH_OPTIONS.contains(current)) return super.handleOption(current, remaining);
        if (!remaining.hasNext()) throw new IllegalArgumentException(current + " needs a value");
        List<Path> kept = new ArrayList<>();
        for (String e : entries(remaining.next())) if (!harness.contains(e)) kept.add(Path.of(e));
        try {
            fileManager.setLocationFromPaths(StandardLocation.CLASS_PATH, kept);
        } catch (IOException e) {
            throw new IllegalArgumentException("bad class path: " + e.getMessage(), e);
        }
        return true;
    }

    /** Puts a precompiled prelude's classes on this class path (the sandbox JVM is given the same bytes). */
    void add(PreludeClass.Compiled prelude) {
        List<JavaFileObject> files = new ArrayList<>();
        prelude.classes().forEach((name, bytes) -> files.add(new MemoryClass(name, bytes)));
        preludes.merge(prelude.packageName(), List.copyOf(files), (had, more) -> {
            List<JavaFileObject> all = new ArrayList<>(had);
            all.addAll(more);
            return List.copyOf(all);
        });
    }

    /**
     * The running JDK's image (its system modules, {@code jrt:/modules/...}), listed once per process: javac lists a
     * module's packages in every compilation context, and JShell makes several per episode (its parse, analysis and
     * code generation each get their own), each listing again what the image holds; it never changes while the
     * process runs.
     *
     * <p>Why: listing the image walked its directories in every context anew: ~10% of the harness's CPU per episode
     * (JFR of a BFCL REPL proof). The listings are made by a file manager of this class's own, opened once and
     * never closed, so no episode's file manager or compiler state is shared: the file objects are the standard
     * file manager's jrt ones (a path each, read with {@code Files.newInputStream}), which javac's
     * {@code inferBinaryName}, {@code isSameFile} and {@code contains} treat by their path alone, whichever file
     * manager made them.
     */
    static final class JdkImage {
        private JdkImage() {}

        private record Listing(String module, String packageName, Set<JavaFileObject.Kind> kinds, boolean recurse) {}

        private static final Map<Listing, List<JavaFileObject>> LISTED = new ConcurrentHashMap<>();
        private static final Map<String, List<Path>> IMAGE_PATHS = new ConcurrentHashMap<>();
        private static StandardJavaFileManager lister;

        /** The module name when {@code location} is one of the running JDK's system modules in {@code fm}, else null. */
        static String moduleOf(StandardJavaFileManager fm, Location location) {
            if (location.isOutputLocation()
                    || location.isModuleOrientedLocation()
                    || !location.getName().startsWith("SYSTEM_MODULES[")) return null;
            try {
                String module = fm.inferModuleName(location);
                if (module == null || fm.getLocationForModule(StandardLocation.SYSTEM_MODULES, module) != location)
                    return null;
                // The same image as this process's (no --system elsewhere): the same paths as the lister's.
                Iterable<? extends Path> mine = fm.getLocationAsPaths(location);
                List<Path> image = imagePaths(module);
                return mine != null && !image.isEmpty() && toList(mine).equals(image) ? module : null;
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        private static List<Path> imagePaths(String module) {
            List<Path> had = IMAGE_PATHS.get(module);
            if (had != null) return had;
            synchronized (JdkImage.class) {
                try {
                    Location l = lister().getLocationForModule(StandardLocation.SYSTEM_MODULES, module);
                    Iterable<? extends Path> paths = l == null ? null : lister().getLocationAsPaths(l);
                    List<Path> kept = paths == null ? List.of() : List.copyOf(toList(paths));
                    IMAGE_PATHS.put(module, kept);
                    return kept;
                } catch (IOException e) {
                    return List.of();
                }
            }
        }

        private static List<Path> toList(Iterable<? extends Path> paths) {
            List<Path> out = new ArrayList<>();
            paths.forEach(out::add);
            return out;
        }

        /** What the standard file manager lists in {@code module}'s {@code packageName}, from this process's listing. */
        static List<JavaFileObject> list(
                String module, String packageName, Set<JavaFileObject.Kind> kinds, boolean recurse) throws IOException {
            Listing key = new Listing(module, packageName, Set.copyOf(kinds), recurse);
            List<JavaFileObject> had = LISTED.get(key);
            if (had != null) return had;
            synchronized (JdkImage.class) { // the standard file manager is not thread-safe
                had = LISTED.get(key);
                if (had != null) return had;
                List<JavaFileObject> listed = new ArrayList<>();
                lister().list(
                                lister().getLocationForModule(StandardLocation.SYSTEM_MODULES, module),
                                packageName,
                                kinds,
                                recurse)
                        .forEach(listed::add);
                List<JavaFileObject> kept = List.copyOf(listed);
                LISTED.put(key, kept);
                return kept;
            }
        }

        /** Uncached: the standard file manager's own listing in a file manager of its own (for tests). */
        static StandardJavaFileManager uncachedFileManager() {
            return ToolProvider.getSystemJavaCompiler().getStandardFileManager(null, null, StandardCharsets.UTF_8);
        }

        private static StandardJavaFileManager lister() {
            if (lister == null) lister = uncachedFileManager();
            return lister;
        }
    }

    /** A class file held in memory (a precompiled prelude's). */
    private static final class MemoryClass extends SimpleJavaFileObject {
        final String binaryName;
        private final byte[] bytes;

        MemoryClass(String binaryName, byte[] bytes) {
            super(URI.create("mem:///" + binaryName.replace('.', '/') + ".class"), Kind.CLASS);
            this.binaryName = binaryName;
            this.bytes = bytes;
        }

        @Override
        public InputStream openInputStream() {
            return new ByteArrayInputStream(bytes);
        }
    }

    @Override
    public Iterable<JavaFileObject> list(
            Location location, String packageName, Set<JavaFileObject.Kind> kinds, boolean recurse) throws IOException {
        String module = JdkImage.moduleOf(fileManager, location);
        if (module != null) return JdkImage.list(module, packageName, kinds, recurse);
        Iterable<JavaFileObject> listed = super.list(location, packageName, kinds, recurse);
        List<JavaFileObject> mine = preludes.get(packageName);
        if (mine == null || location != StandardLocation.CLASS_PATH || !kinds.contains(JavaFileObject.Kind.CLASS))
            return listed;
        List<JavaFileObject> all = new ArrayList<>(mine);
        listed.forEach(all::add);
        return all;
    }

    /**
     * The class loader javac looks for its plugins and annotation processors in: one that holds neither, for every
     * location (JShell compiles with {@code -proc:none}, and a snippet is compiled with no plugin).
     *
     * <p>Why: javac asks for it in every task ({@code BasicJavacTask.initPlugins} and
     * {@code JavacProcessingEnvironment.initProcessorLoader}, both through this file manager), and the standard file
     * manager's answer was a new {@code URLClassLoader} over the class path whose parent is the harness's application
     * class loader, so each task (a few dozen per episode) searched every jar of the harness's class path for
     * {@code META-INF/services/com.sun.source.util.Plugin}: ~6% of the harness's CPU in a BFCL REPL proof (JFR), and a
     * plugin on the harness's class path would have run in the sandbox's compiler.
     */
    static final ClassLoader NO_PLUGINS =
            new ClassLoader("brokkr-sandbox-compile-no-plugins", ClassLoader.getPlatformClassLoader()) {};

    @Override
    public ClassLoader getClassLoader(Location location) {
        return NO_PLUGINS;
    }

    @Override
    public String inferBinaryName(Location location, JavaFileObject file) {
        return file instanceof MemoryClass m ? m.binaryName : super.inferBinaryName(location, file);
    }

    // ------------------------------------------------ the rest of StandardJavaFileManager, forwarded

    @Override
    public boolean isSameFile(FileObject a, FileObject b) {
        if (a instanceof MemoryClass || b instanceof MemoryClass) return a == b;
        return fileManager.isSameFile(a, b);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjectsFromFiles(Iterable<? extends File> files) {
        return fileManager.getJavaFileObjectsFromFiles(files);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjectsFromPaths(Collection<? extends Path> paths) {
        return fileManager.getJavaFileObjectsFromPaths(paths);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjects(File... files) {
        return fileManager.getJavaFileObjects(files);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjects(Path... paths) {
        return fileManager.getJavaFileObjects(paths);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjectsFromStrings(Iterable<String> names) {
        return fileManager.getJavaFileObjectsFromStrings(names);
    }

    @Override
    public Iterable<? extends JavaFileObject> getJavaFileObjects(String... names) {
        return fileManager.getJavaFileObjects(names);
    }

    @Override
    public void setLocation(Location location, Iterable<? extends File> files) throws IOException {
        fileManager.setLocation(location, files);
    }

    @Override
    public void setLocationFromPaths(Location location, Collection<? extends Path> paths) throws IOException {
        fileManager.setLocationFromPaths(location, paths);
    }

    @Override
    public void setLocationForModule(Location location, String moduleName, Collection<? extends Path> paths)
            throws IOException {
        fileManager.setLocationForModule(location, moduleName, paths);
    }

    @Override
    public Iterable<? extends File> getLocation(Location location) {
        return fileManager.getLocation(location);
    }

    @Override
    public Iterable<? extends Path> getLocationAsPaths(Location location) {
        return fileManager.getLocationAsPaths(location);
    }

    @Override
    public Path asPath(FileObject file) {
        return fileManager.asPath(file);
    }

    @Override
    public void setPathFactory(PathFactory f) {
        fileManager.setPathFactory(f);
    }
}
