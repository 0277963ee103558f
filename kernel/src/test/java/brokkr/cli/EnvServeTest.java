package brokkr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.Value;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code ./brokkr env serve}: the example domain served by a real process, stepped over HTTP with the token it
 * printed to its grade; bad arguments are usage errors (exit 2); {@code ./brokkr help} lists it.
 */
class EnvServeTest {
    @Test
    void aServedDomainIsSteppedToItsGradeWithThePrintedToken() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "env",
                "serve",
                "--domain",
                "example"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("BROKKR_ENV_TOKEN");
        Process p = pb.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String serving = out.readLine(), tokenLine = out.readLine();
            assertTrue(serving != null && serving.contains(" at http://127.0.0.1:"), serving);
            String base = serving.substring(serving.indexOf(" at ") + 4, serving.indexOf(" (POST"));
            String token = tokenLine.substring("token: ".length(), tokenLine.indexOf("  "));
            HttpClient http = HttpClient.newHttpClient();

            Response reset = post(http, base + "/reset", token, "{\"task\": \"2\"}");
            assertEquals(200, reset.status(), reset.body().toString());
            String session = reset.body().get("session").asStr();
            PyDict obs = reset.body().get("observation").asDict();
            assertEquals(
                    "add",
                    obs.get("tools")
                            .asList()
                            .get(0)
                            .asDict()
                            .get("function")
                            .asDict()
                            .get("name")
                            .asStr());
            Response step = post(
                    http,
                    base + "/step",
                    token,
                    "{\"session\": \"" + session + "\", \"action\": {\"tool_calls\": [{\"id\": \"c1\", \"type\":"
                            + " \"function\", \"function\": {\"name\": \"add\", \"arguments\": \"{\\\"amount\\\": 2}\"}}]}}");
            assertEquals(200, step.status(), step.body().toString());
            assertEquals(Value.of(false), step.body().get("done"));
            Response end =
                    post(http, base + "/step", token, "{\"session\": \"" + session + "\", \"action\": \"done\"}");
            assertEquals(Value.of(true), end.body().get("done"), end.body().toString());
            assertEquals(Value.of(1.0), end.body().get("reward"), end.body().toString());

            // A new client (a new connection) for the refusals: the episode's last step intermittently left its pooled
            // keep-alive connection closed by the server, and the JDK client does not retry a POST on a stale one
            // (seen 1 in 3 runs: "header parser received no bytes"). Left open: why the server closes it.
            http = HttpClient.newHttpClient();
            assertEquals(
                    401,
                    post(http, base + "/reset", token + "x", "{\"task\": \"2\"}")
                            .status());
            Response unknown = post(http, base + "/step", token, "{\"session\": \"nope\", \"action\": \"hi\"}");
            assertEquals(404, unknown.status());
            assertEquals(
                    "unknown_session",
                    unknown.body().get("error").asDict().get("kind").asStr());
        } finally {
            p.destroy();
            if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly().waitFor();
        }
    }

    record Response(int status, PyDict body) {}

    static Response post(HttpClient http, String url, String token, String json) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", "Bearer " + token)
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.statusCode() == 401 ? PyDict.empty() : (PyDict) Json.parse(r.body()));
    }

    @Test
    void badArgumentsAreUsageErrorsAndHelpListsIt() {
        for (List<String> argv : List.of(
                List.of("env"),
                List.of("env", "start"),
                List.of("env", "serve"),
                List.of("env", "serve", "--domain", "example", "--port", "x"),
                List.of("env", "serve", "--domain", "example", "--max-sessions", "0"),
                List.of("env", "serve", "--domain", "example", "--user", "gpt"),
                List.of("env", "serve", "--domain", "example", "--bogus", "1"),
                List.of("env", "serve", "--domain"))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Main.run(argv, new PrintStream(new ByteArrayOutputStream(), true), new PrintStream(err, true));
            String e = err.toString(StandardCharsets.UTF_8);
            assertEquals(2, code, argv + ": " + e);
            assertTrue(e.contains("usage: ./brokkr env serve --domain D"), argv + ": " + e);
        }
        for (List<String> argv : List.of(
                List.of("env", "serve", "--domain", "nope"),
                List.of("env", "serve", "--domain", "example", "--host", "0.0.0.0"))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Main.run(argv, new PrintStream(new ByteArrayOutputStream(), true), new PrintStream(err, true));
            assertEquals(2, code, argv + ": " + err.toString(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream help = new ByteArrayOutputStream();
        Main.run(List.of("help"), new PrintStream(help, true), new PrintStream(new ByteArrayOutputStream(), true));
        String h = help.toString(StandardCharsets.UTF_8);
        assertTrue(h.lines().anyMatch(l -> l.strip().startsWith("env ") && l.contains("serve")), h);
        assertFalse(h.contains("Exception"), h);
    }
}
