package brokkr.experiment;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * A PostgreSQL experiment store: {@code postgresql://[USER@]HOST[:PORT]/DB[?schema=S][&sslmode=M]}, the schema
 * {@code S} (default {@value #DEFAULT_SCHEMA}) of database {@code DB} holding what one experiment directory's
 * {@code experiment.db} holds.
 *
 * <p>Credentials never come from the URL, a spec or the store: the user is the URL's, else {@code PGUSER}, else
 * the operating system's user (the driver's default); the password is {@code PGPASSWORD}, else the driver's
 * {@code ~/.pgpass} ({@code PGPASSFILE}) lookup, as {@code psql} does. A URL carrying a password (in its user
 * part or as {@code ?password=}) is refused without echoing it, so a password never reaches a shell history, a
 * spec, a record or an output through Brokkr. {@link #display()} is what every message prints.
 */
public record PostgresLocation(String host, int port, String database, String schema, String user, String sslmode)
        implements StoreLocation {
    public static final String DEFAULT_SCHEMA = "brokkr";
    public static final int DEFAULT_PORT = 5432;

    /** Schema and database names Brokkr accepts: plain SQL identifiers, so they are never quoted or injected. */
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    static boolean isUrl(String s) {
        return s.startsWith("postgresql://") || s.startsWith("postgres://");
    }

    /** Parses a store URL; IllegalArgumentException (never naming a password) when it is not one Brokkr accepts. */
    public static PostgresLocation parse(String url) {
        if (!isUrl(url)) throw new IllegalArgumentException("not a PostgreSQL store URL (postgresql://HOST[:PORT]/DB)");
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("malformed store URL " + redact(url) + ": " + e.getReason());
        }
        String info = u.getRawUserInfo();
        if (info != null && info.contains(":"))
            throw new IllegalArgumentException("the store URL " + redact(url)
                    + " carries a password: it is refused; give the password in PGPASSWORD or ~/.pgpass instead");
        String host = u.getHost();
        if (host == null || host.isEmpty())
            throw new IllegalArgumentException(
                    "store URL " + redact(url) + " names no host (postgresql://HOST[:PORT]/DB)");
        String path = u.getRawPath() == null ? "" : u.getRawPath();
        String db = decode(path.startsWith("/") ? path.substring(1) : path);
        if (db.isEmpty())
            throw new IllegalArgumentException(
                    "store URL " + redact(url) + " names no database (postgresql://HOST[:PORT]/DB)");
        if (!IDENTIFIER.matcher(db).matches())
            throw new IllegalArgumentException("store URL " + redact(url) + ": database name '" + db
                    + "' is not a plain identifier (letters, digits, _)");
        String schema = DEFAULT_SCHEMA, sslmode = null;
        Map<String, String> query = query(u.getRawQuery(), url);
        for (var e : query.entrySet()) {
            switch (e.getKey()) {
                case "schema" -> schema = e.getValue();
                case "sslmode" -> sslmode = e.getValue();
                case "password" ->
                    throw new IllegalArgumentException(
                            "the store URL " + redact(url)
                                    + " carries a password: it is refused; give the password in PGPASSWORD or ~/.pgpass instead");
                default ->
                    throw new IllegalArgumentException("store URL " + redact(url) + ": unknown parameter '" + e.getKey()
                            + "' (known: schema, sslmode)");
            }
        }
        if (!IDENTIFIER.matcher(schema).matches())
            throw new IllegalArgumentException("store URL " + redact(url) + ": schema '" + schema
                    + "' is not a plain identifier (letters, digits, _)");
        String user = info == null ? null : decode(info);
        return new PostgresLocation(host, u.getPort() < 0 ? DEFAULT_PORT : u.getPort(), db, schema, user, sslmode);
    }

    private static Map<String, String> query(String raw, String url) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) return out;
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            String k = decode(eq < 0 ? kv : kv.substring(0, eq)), v = eq < 0 ? "" : decode(kv.substring(eq + 1));
            if (k.equals("password")) out.put(k, "");
            else out.put(k, v);
        }
        return out;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /**
     * {@code url} with any password replaced by {@code ***} (the user part's and a {@code password=} parameter's):
     * what a message may print of a URL that was refused.
     */
    public static String redact(String url) {
        String s = url.replaceAll("^(postgres(?:ql)?://[^/@:?#]*):[^@/?#]*@", "$1:***@");
        return s.replaceAll("([?&]password=)[^&#]*", "$1***");
    }

    /** The URL without password: what messages print. */
    @Override
    public String display() {
        return "postgresql://" + (user == null ? "" : user + "@") + (host.contains(":") ? "[" + host + "]" : host)
                + (port == DEFAULT_PORT ? "" : ":" + port) + "/" + database
                + (schema.equals(DEFAULT_SCHEMA) ? "" : "?schema=" + schema)
                + (sslmode == null ? "" : (schema.equals(DEFAULT_SCHEMA) ? "?" : "&") + "sslmode=" + sslmode);
    }

    @Override
    public String toString() {
        return display();
    }

    /** This location in another schema of the same database. */
    public PostgresLocation withSchema(String other) {
        return new PostgresLocation(host, port, database, other, user, sslmode);
    }

    /** The JDBC URL (no credentials in it). */
    String jdbcUrl() {
        return "jdbc:postgresql://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/" + database;
    }

    /** Connects with credentials from {@code env} ({@code PGUSER}, {@code PGPASSWORD}) or ~/.pgpass. */
    Connection connect(Map<String, String> env) {
        Properties p = new Properties();
        String u = user != null ? user : env.get("PGUSER");
        if (u != null && !u.isEmpty()) p.setProperty("user", u);
        String password = env.get("PGPASSWORD");
        if (password != null && !password.isEmpty()) p.setProperty("password", password);
        if (sslmode != null) p.setProperty("sslmode", sslmode);
        p.setProperty("ApplicationName", "brokkr");
        p.setProperty("currentSchema", schema);
        p.setProperty("connectTimeout", "10");
        p.setProperty("loginTimeout", "15");
        p.setProperty("tcpKeepAlive", "true");
        try {
            return DriverManager.getConnection(jdbcUrl(), p);
        } catch (SQLException e) {
            throw new ExperimentStore.StoreException(connectMessage(e, u), e);
        }
    }

    /** Why a connection failed, in the terms a user acts on (never a password: the driver's messages hold none). */
    private String connectMessage(SQLException e, String u) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        String who = u != null ? u : System.getProperty("user.name");
        if (state.equals("28P01") || state.equals("28000"))
            return "cannot open the store " + display() + ": PostgreSQL refused user '" + who
                    + "' (wrong or missing credentials: the password comes from PGPASSWORD or ~/.pgpass): " + why;
        if (state.equals("3D000"))
            return "cannot open the store " + display() + ": database '" + database + "' does not exist"
                    + " (create it with createdb " + database + "; Brokkr creates its schema, never a database)";
        if (state.startsWith("08"))
            return "cannot reach PostgreSQL for the store " + display() + " at " + host + ":" + port + ": " + why;
        return "cannot open the store " + display() + ": " + why;
    }
}
