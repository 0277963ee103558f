package brokkr.kernel;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.maven.settings.Mirror;
import org.apache.maven.settings.Profile;
import org.apache.maven.settings.Proxy;
import org.apache.maven.settings.Repository;
import org.apache.maven.settings.Server;
import org.apache.maven.settings.Settings;
import org.apache.maven.settings.building.DefaultSettingsBuilderFactory;
import org.apache.maven.settings.building.DefaultSettingsBuildingRequest;
import org.apache.maven.settings.building.SettingsBuildingException;
import org.apache.maven.settings.building.SettingsBuildingResult;
import org.apache.maven.settings.crypto.DefaultSettingsDecrypter;
import org.apache.maven.settings.crypto.DefaultSettingsDecryptionRequest;
import org.apache.maven.settings.crypto.SettingsDecryptionResult;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.Artifact;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.graph.DependencyNode;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.RepositoryPolicy;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;
import org.eclipse.aether.resolution.DependencyResult;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.supplier.SessionBuilderSupplier;
import org.eclipse.aether.transfer.AbstractTransferListener;
import org.eclipse.aether.transfer.TransferEvent;
import org.eclipse.aether.util.artifact.JavaScopes;
import org.eclipse.aether.util.filter.DependencyFilterUtils;
import org.eclipse.aether.util.repository.AuthenticationBuilder;
import org.eclipse.aether.util.repository.DefaultAuthenticationSelector;
import org.eclipse.aether.util.repository.DefaultMirrorSelector;
import org.eclipse.aether.util.repository.DefaultProxySelector;
import org.sonatype.plexus.components.cipher.DefaultPlexusCipher;
import org.sonatype.plexus.components.sec.dispatcher.DefaultSecDispatcher;

/**
 * {@code %maven}'s resolution: coordinates to jar files with their runtime dependencies, by Maven's own
 * resolver (Maven Resolver 2, bootstrapped by its {@code supplier-mvn3}) configured from the user's Maven
 * settings as {@code mvn} reads them (Maven's settings builder: user and global {@code settings.xml}
 * merged and interpolated, passwords decrypted with {@code settings-security.xml}): the local repository,
 * offline mode, mirrors, servers' credentials, proxies, and the repositories of the active profiles
 * ({@code activeProfiles} and {@code activeByDefault}), before Maven Central as in {@code mvn}; a
 * profile's repository with the id {@code central} replaces it.
 *
 * <p>Where the settings are: {@code -Dbrokkr.maven.settings=FILE} (like {@code mvn -s}), else
 * {@code ~/.m2/settings.xml}; global settings from {@code $MAVEN_HOME} or {@code $M2_HOME}
 * ({@code conf/settings.xml}) when set; {@code -Dmaven.repo.local} overrides the local repository as it
 * does for {@code mvn}.
 */
public final class MavenDependencies implements AutoCloseable {
    public static final String CENTRAL_URL = "https://repo.maven.apache.org/maven2/";

    /** One resolved jar: its coordinates, its file in the local repository, and whether it was asked for. */
    public record Resolved(String coordinates, Path file, boolean requested) {}

    /** Where the settings come from; a missing file is no settings. */
    /**
     * Where the settings come from; {@code home} is the home directory {@code ~/.m2} is under ({@code $HOME}
     * first, as mvn's shell script and Jupyter see it: {@link KernelSpec#home}), null for Java's {@code user.home}.
     */
    public record SettingsFiles(Path user, Path global, Path security, String localRepositoryOverride, Path home) {
        public SettingsFiles(Path user, Path global, Path security, String localRepositoryOverride) {
            this(user, global, security, localRepositoryOverride, null);
        }
    }

    private final SettingsFiles files;
    private final Settings settings;
    private final List<String> settingsProblems;
    private RepositorySystem system;

    public MavenDependencies(SettingsFiles files) {
        this.files = files;
        SettingsBuildingResult built = build(files);
        this.settings = decrypt(built.getEffectiveSettings(), files.security());
        this.settingsProblems =
                built.getProblems().stream().map(Object::toString).toList();
    }

    /** The settings of this user and process (see the class comment). */
    public static MavenDependencies fromEnvironment(Map<String, String> env, Properties system) {
        return new MavenDependencies(settingsFiles(env, system));
    }

    static SettingsFiles settingsFiles(Map<String, String> env, Properties system) {
        String envHome = env.get("HOME");
        Path home = envHome != null && !envHome.isBlank() ? Path.of(envHome) : Path.of(system.getProperty("user.home"));
        Path m2 = home.resolve(".m2");
        String userSettings = system.getProperty("brokkr.maven.settings");
        Path user = userSettings != null ? Path.of(userSettings) : m2.resolve("settings.xml");
        Path global = null;
        for (String k : List.of("MAVEN_HOME", "M2_HOME")) {
            String mavenHome = env.get(k);
            if (mavenHome != null && !mavenHome.isBlank()) {
                global = Path.of(mavenHome, "conf", "settings.xml");
                break;
            }
        }
        String security = system.getProperty("settings.security");
        return new SettingsFiles(
                user,
                global,
                security != null ? Path.of(security) : m2.resolve("settings-security.xml"),
                system.getProperty("maven.repo.local"),
                home);
    }

    private static SettingsBuildingResult build(SettingsFiles files) {
        DefaultSettingsBuildingRequest request = new DefaultSettingsBuildingRequest();
        if (files.user() != null && Files.isRegularFile(files.user()))
            request.setUserSettingsFile(files.user().toFile());
        if (files.global() != null && Files.isRegularFile(files.global()))
            request.setGlobalSettingsFile(files.global().toFile());
        request.setSystemProperties(System.getProperties());
        try {
            return new DefaultSettingsBuilderFactory().newInstance().build(request);
        } catch (SettingsBuildingException e) {
            throw new IllegalArgumentException("the Maven settings cannot be read: " + e.getMessage(), e);
        }
    }

    /** Servers' and proxies' passwords in Maven's encrypted form ({@code {...}}) decrypted, as mvn does. */
    private static Settings decrypt(Settings s, Path security) {
        DefaultSecDispatcher dispatcher = new DefaultSecDispatcher(
                new DefaultPlexusCipher(), Map.of(), security == null ? null : security.toString());
        SettingsDecryptionResult r =
                new DefaultSettingsDecrypter(dispatcher).decrypt(new DefaultSettingsDecryptionRequest(s));
        Settings out = s.clone();
        out.setServers(r.getServers());
        out.setProxies(r.getProxies());
        return out;
    }

    /** The local repository: {@code -Dmaven.repo.local}, the settings' {@code localRepository}, else {@code ~/.m2/repository}. */
    public Path localRepository() {
        if (files.localRepositoryOverride() != null) return Path.of(files.localRepositoryOverride());
        if (settings.getLocalRepository() != null
                && !settings.getLocalRepository().isBlank()) return Path.of(settings.getLocalRepository());
        Path home = files.home() != null ? files.home() : Path.of(System.getProperty("user.home"));
        return home.resolve(".m2").resolve("repository");
    }

    /** Problems Maven's settings builder reported (a file it could read with warnings). */
    public List<String> settingsProblems() {
        return settingsProblems;
    }

    /** The repositories asked, in order, before mirrors apply: the active profiles' ones, then Central. */
    public List<RemoteRepository> repositories() {
        Map<String, RemoteRepository> byId = new LinkedHashMap<>();
        List<String> active = settings.getActiveProfiles();
        for (Profile p : settings.getProfiles()) {
            boolean on = active.contains(p.getId())
                    || (p.getActivation() != null && p.getActivation().isActiveByDefault());
            if (!on) continue;
            for (Repository r : p.getRepositories()) byId.putIfAbsent(r.getId(), repository(r));
        }
        byId.putIfAbsent(
                "central",
                new RemoteRepository.Builder("central", "default", CENTRAL_URL)
                        .setSnapshotPolicy(new RepositoryPolicy(false, null, null))
                        .build());
        return List.copyOf(byId.values());
    }

    private static RemoteRepository repository(Repository r) {
        RemoteRepository.Builder b =
                new RemoteRepository.Builder(r.getId(), r.getLayout() == null ? "default" : r.getLayout(), r.getUrl());
        if (r.getReleases() != null) {
            b.setReleasePolicy(new RepositoryPolicy(
                    r.getReleases().isEnabled(),
                    r.getReleases().getUpdatePolicy(),
                    r.getReleases().getChecksumPolicy()));
        }
        if (r.getSnapshots() != null) {
            b.setSnapshotPolicy(new RepositoryPolicy(
                    r.getSnapshots().isEnabled(),
                    r.getSnapshots().getUpdatePolicy(),
                    r.getSnapshots().getChecksumPolicy()));
        }
        return b.build();
    }

    /**
     * The jars of {@code coordinates} ({@code G:A:V}, {@code G:A:EXT:V} or {@code G:A:EXT:CLASSIFIER:V}) and of
     * their compile and runtime dependencies, Maven's nearest-wins version choice applied across all of them;
     * {@code log} hears of each file downloaded. A coordinate that cannot be resolved is an
     * {@link IllegalStateException} naming it and the repositories asked.
     */
    public synchronized List<Resolved> resolve(List<String> coordinates, PrintStream log) {
        List<Dependency> roots = new ArrayList<>();
        for (String c : coordinates) roots.add(new Dependency(new DefaultArtifact(c), JavaScopes.RUNTIME));
        RepositorySystem sys = system();
        try (RepositorySystemSession.CloseableSession session = session(sys, log)) {
            List<RemoteRepository> repos = sys.newResolutionRepositories(session, repositories());
            CollectRequest collect = new CollectRequest(roots, List.of(), repos);
            DependencyRequest request =
                    new DependencyRequest(collect, DependencyFilterUtils.classpathFilter(JavaScopes.RUNTIME));
            DependencyResult result;
            try {
                result = sys.resolveDependencies(session, request);
            } catch (DependencyResolutionException e) {
                throw new IllegalStateException(
                        "cannot resolve " + String.join(" ", coordinates) + ": " + rootMessage(e) + " (repositories: "
                                + String.join(
                                        ", ",
                                        repos.stream()
                                                .map(MavenDependencies::describe)
                                                .toList()) + ")",
                        e);
            }
            List<String> direct = result.getRoot().getChildren().stream()
                    .map(DependencyNode::getArtifact)
                    .map(MavenDependencies::key)
                    .toList();
            List<Resolved> out = new ArrayList<>();
            for (ArtifactResult ar : result.getArtifactResults()) {
                Artifact a = ar.getArtifact();
                if (a == null || a.getPath() == null) continue;
                out.add(new Resolved(a.toString(), a.getPath(), direct.contains(key(a))));
            }
            return out;
        }
    }

    private static String key(Artifact a) {
        return a.getGroupId() + ":" + a.getArtifactId() + ":" + a.getClassifier() + ":" + a.getExtension();
    }

    private static String describe(RemoteRepository r) {
        return r.getId() + " " + r.getUrl()
                + (r.getMirroredRepositories().isEmpty()
                        ? ""
                        : " (mirror of "
                                + String.join(
                                        ", ",
                                        r.getMirroredRepositories().stream()
                                                .map(RemoteRepository::getId)
                                                .toList())
                                + ")");
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    private RepositorySystem system() {
        if (system == null) system = new RepositorySystemSupplier().get();
        return system;
    }

    private RepositorySystemSession.CloseableSession session(RepositorySystem sys, PrintStream log) {
        DefaultMirrorSelector mirrors = new DefaultMirrorSelector();
        for (Mirror m : settings.getMirrors()) {
            mirrors.add(
                    m.getId(),
                    m.getUrl(),
                    m.getLayout(),
                    false,
                    m.isBlocked(),
                    m.getMirrorOf(),
                    m.getMirrorOfLayouts());
        }
        DefaultAuthenticationSelector auth = new DefaultAuthenticationSelector();
        for (Server s : settings.getServers()) {
            AuthenticationBuilder a =
                    new AuthenticationBuilder().addUsername(s.getUsername()).addPassword(s.getPassword());
            if (s.getPrivateKey() != null) a.addPrivateKey(s.getPrivateKey(), s.getPassphrase());
            auth.add(s.getId(), a.build());
        }
        DefaultProxySelector proxies = new DefaultProxySelector();
        for (Proxy p : settings.getProxies()) {
            if (!p.isActive()) continue;
            proxies.add(
                    new org.eclipse.aether.repository.Proxy(
                            p.getProtocol(),
                            p.getHost(),
                            p.getPort(),
                            new AuthenticationBuilder()
                                    .addUsername(p.getUsername())
                                    .addPassword(p.getPassword())
                                    .build()),
                    p.getNonProxyHosts());
        }
        Supplier<RepositorySystemSession.SessionBuilder> builder = new SessionBuilderSupplier(sys);
        return builder.get()
                .withLocalRepositoryBaseDirectories(localRepository())
                .setOffline(settings.isOffline())
                .setMirrorSelector(mirrors)
                .setAuthenticationSelector(auth)
                .setProxySelector(proxies)
                .setSystemProperties(System.getProperties())
                .setTransferListener(new AbstractTransferListener() {
                    /**
                     * A download whose checksum does not match: said as mvn says it, and used as mvn uses it
                     * (Maven's default checksum policy, warn); never silently.
                     */
                    @Override
                    public void transferCorrupted(TransferEvent event) {
                        String name = event.getResource().getResourceName();
                        log.println("warning: checksum mismatch for " + name.substring(name.lastIndexOf('/') + 1)
                                + " from " + event.getResource().getRepositoryId() + ": "
                                + (event.getException() == null
                                        ? ""
                                        : event.getException().getMessage())
                                + " (used anyway, as mvn does with its default checksum policy)");
                    }

                    @Override
                    public void transferSucceeded(TransferEvent event) {
                        if (event.getRequestType() != TransferEvent.RequestType.GET) return;
                        String name = event.getResource().getResourceName();
                        if (!name.endsWith(".jar")) return;
                        log.println("downloaded " + name.substring(name.lastIndexOf('/') + 1) + " ("
                                + event.getTransferredBytes() + " bytes) from "
                                + event.getResource().getRepositoryId());
                    }
                })
                .build();
    }

    @Override
    public synchronized void close() {
        if (system != null) system.shutdown();
        system = null;
    }
}
