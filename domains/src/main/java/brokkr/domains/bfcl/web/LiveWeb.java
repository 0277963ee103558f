package brokkr.domains.bfcl.web;

import brokkr.domains.bfcl.multiturn.IoFailure;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * The live IO {@code ./brokkr bfcl record-web} records: SerpAPI's {@code /search} as the {@code serpapi} client
 * upstream uses calls it ({@code GoogleSearch(params).get_dict()}: {@code engine=duckduckgo}, {@code q}, {@code kl},
 * {@code api_key}, {@code output=json}, {@code source=python}; the JSON body as a dict whatever the status, as the
 * client does not raise for it), and a page as {@code fetch_url_content}'s {@code requests.get(url, headers=...,
 * timeout=20, allow_redirects=True)} then {@code raise_for_status()} sees it.
 *
 * <p>What is Brokkr's, not upstream's: the transport's error texts (a refused connection, a timeout, an unparsable
 * URL: Java's messages, not urllib3's); the HTTP reason phrase of an error status is the standard one for the code
 * ({@code requests} prints the server's, which is that for nearly every server); {@code response.text}'s decoding is
 * {@code requests}' rule for a declared charset, {@code text/*} without one (ISO-8859-1) and JSON (UTF-8), and UTF-8
 * where {@code requests} would guess ({@code apparent_encoding}). A SerpAPI 429 is retried with upstream's back-off
 * (2 s doubling to at most 120 s, plus up to as much again at random), {@value #MAX_429_RETRIES} times at most, then
 * the recording fails (upstream retries forever). The key is read from the environment by the caller and never
 * recorded: the reduced response holds only what upstream reads, and {@link WebRecording.Builder} refuses a line
 * that contains it.
 *
 * @param serpApiBase SerpAPI's base URL ({@code https://serpapi.com}; a loopback fake in tests only)
 */
public record LiveWeb(String serpApiBase, String apiKey, HttpClient http, Sleeper sleeper) {
    static final int MAX_429_RETRIES = 8;
    public static final String SERPAPI = "https://serpapi.com";

    /** How the 429 back-off waits (tests: without waiting). */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    public static LiveWeb of(String serpApiBase, String apiKey) {
        return new LiveWeb(
                serpApiBase,
                apiKey,
                HttpClient.newBuilder()
                        .followRedirects(HttpClient.Redirect.ALWAYS)
                        .connectTimeout(Duration.ofSeconds(20))
                        .build(),
                d -> Thread.sleep(d));
    }

    @Override
    public String toString() {
        return "LiveWeb[" + serpApiBase + "]"; // never the key
    }

    public WebRecording.Outcome search(WebRecording.Query q) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        params.put("engine", List.of("duckduckgo"));
        if (q.q() != null) params.put("q", List.of(q.q().split("\u0000", -1)));
        if (q.kl() != null) params.put("kl", List.of(q.kl().split("\u0000", -1)));
        params.put("api_key", List.of(apiKey == null ? "" : apiKey));
        params.put("output", List.of("json"));
        params.put("source", List.of("python"));
        StringBuilder query = new StringBuilder();
        for (Map.Entry<String, List<String>> e : params.entrySet())
            for (String v : e.getValue())
                query.append(query.isEmpty() ? "" : "&")
                        .append(e.getKey())
                        .append('=')
                        .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        URI uri = URI.create(serpApiBase.replaceAll("/+$", "") + "/search?" + query);
        double backoff = 2;
        for (int attempt = 0; ; attempt++) {
            String body;
            try {
                HttpResponse<byte[]> r = http.send(
                        HttpRequest.newBuilder(uri)
                                .timeout(Duration.ofSeconds(60))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                body = new String(r.body(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                String m = scrub(String.valueOf(e.getMessage()));
                if (!m.contains("429")) return WebRecording.Outcome.raised(m);
                body = null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IoFailure("interrupted while searching", e);
            }
            PyDict response = null;
            if (body != null) {
                try {
                    response = Json.parse(body).asDict();
                } catch (RuntimeException e) {
                    return WebRecording.Outcome.raised("SerpAPI answered no JSON object (Brokkr's text)");
                }
                Value error = response.get("error");
                if (error == null || !error.toString().contains("429"))
                    return WebRecording.Outcome.searched(reduce(response));
            }
            if (attempt >= MAX_429_RETRIES)
                throw new IoFailure("SerpAPI answered 429 (rate limit or no searches left) " + (attempt + 1)
                        + " times for one search; recording stopped");
            double wait = backoff + Math.random() * backoff;
            try {
                sleeper.sleep(Duration.ofMillis((long) (wait * 1000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IoFailure("interrupted while waiting out a SerpAPI 429", e);
            }
            backoff = Math.min(backoff * 2, 120);
        }
    }

    private String scrub(String s) {
        return apiKey == null || apiKey.isEmpty() ? s : s.replace(apiKey, "[SERPAPI_API_KEY]");
    }

    /** The response reduced to what {@code search_engine_query} reads: {@code error} and each organic result's title, link, snippet. */
    static PyDict reduce(PyDict response) {
        PyDict.Builder out = PyDict.builder();
        Value error = response.get("error");
        if (error != null) out.put("error", error instanceof PyStr ? error : new PyStr(error.toString()));
        Value organic = response.get("organic_results");
        if (organic instanceof PyList l) {
            List<Value> rs = new ArrayList<>();
            for (Value r : l.items()) {
                PyDict.Builder kept = PyDict.builder();
                if (r instanceof PyDict d)
                    for (String k : List.of("title", "link", "snippet")) if (d.containsKey(k)) kept.put(k, d.get(k));
                rs.add(kept.build());
            }
            out.put("organic_results", PyList.of(rs));
        }
        return out.build();
    }

    /** Upstream's browser-like request headers (those the JDK lets a request set; no brotli: it cannot decode it). */
    private static final String[][] HEADERS = {
        {
            "User-Agent",
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 Safari/537.36"
        },
        {
            "Accept",
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
        },
        {"Accept-Language", "en-US,en;q=0.9"},
        {"Accept-Encoding", "gzip, deflate"},
        {"Upgrade-Insecure-Requests", "1"},
        {"Referer", "https://www.google.com/"},
        {"Sec-Fetch-Site", "same-origin"},
        {"Sec-Fetch-Mode", "navigate"},
        {"Sec-Fetch-User", "?1"},
        {"Sec-Fetch-Dest", "document"},
    };

    public WebRecording.Outcome fetch(String url) {
        HttpRequest.Builder rb;
        try {
            rb = HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(20))
                    .GET();
        } catch (IllegalArgumentException e) {
            return WebRecording.Outcome.raised("Invalid URL '" + url + "': " + e.getMessage() + " (Brokkr's text)");
        }
        for (String[] h : HEADERS) rb.header(h[0], h[1]);
        HttpResponse<byte[]> r;
        try {
            r = http.send(rb.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException | IllegalArgumentException e) {
            return WebRecording.Outcome.raised(
                    e.getClass().getSimpleName() + ": " + e.getMessage() + " (Brokkr's text)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IoFailure("interrupted while fetching " + url, e);
        }
        int status = r.statusCode();
        String finalUrl = r.uri().toString();
        // requests' raise_for_status: f"{code} Client Error: {reason} for url: {url}" (Server Error for 5xx)
        if (status >= 400 && status < 600)
            return WebRecording.Outcome.raised(status + (status < 500 ? " Client Error: " : " Server Error: ")
                    + reason(status) + " for url: " + finalUrl);
        byte[] body;
        try {
            body = decode(r.body(), r.headers().firstValue("Content-Encoding").orElse(""));
        } catch (IOException e) {
            return WebRecording.Outcome.raised("ContentDecodingError: " + e.getMessage() + " (Brokkr's text)");
        }
        return WebRecording.Outcome.fetched(new String(body, charset(r.headers().firstValue("Content-Type"))));
    }

    private static byte[] decode(byte[] b, String encoding) throws IOException {
        String e = encoding.trim().toLowerCase(java.util.Locale.ROOT);
        InputStream in;
        if (e.equals("gzip")) in = new GZIPInputStream(new ByteArrayInputStream(b));
        else if (e.equals("deflate")) in = new InflaterInputStream(new ByteArrayInputStream(b));
        else return b;
        try (in) {
            return in.readAllBytes();
        }
    }

    /** {@code requests.utils.get_encoding_from_headers}, UTF-8 where requests would guess. */
    static Charset charset(Optional<String> contentType) {
        if (contentType.isEmpty()) return StandardCharsets.UTF_8;
        String ct = contentType.get();
        for (String part : ct.split(";")) {
            String p = part.trim();
            if (p.toLowerCase(java.util.Locale.ROOT).startsWith("charset=")) {
                String name = p.substring(8).trim().replace("\"", "").replace("'", "");
                try {
                    return Charset.forName(name);
                } catch (RuntimeException ex) {
                    return StandardCharsets.UTF_8;
                }
            }
        }
        if (ct.contains("text")) return StandardCharsets.ISO_8859_1;
        return StandardCharsets.UTF_8;
    }

    /** The standard reason phrases ({@code http.HTTPStatus}). */
    static String reason(int code) {
        return switch (code) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 402 -> "Payment Required";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 406 -> "Not Acceptable";
            case 407 -> "Proxy Authentication Required";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 411 -> "Length Required";
            case 412 -> "Precondition Failed";
            case 413 -> "Request Entity Too Large";
            case 414 -> "Request-URI Too Long";
            case 415 -> "Unsupported Media Type";
            case 416 -> "Requested Range Not Satisfiable";
            case 417 -> "Expectation Failed";
            case 418 -> "I'm a Teapot";
            case 421 -> "Misdirected Request";
            case 422 -> "Unprocessable Entity";
            case 423 -> "Locked";
            case 424 -> "Failed Dependency";
            case 425 -> "Too Early";
            case 426 -> "Upgrade Required";
            case 428 -> "Precondition Required";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 451 -> "Unavailable For Legal Reasons";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            case 505 -> "HTTP Version Not Supported";
            case 506 -> "Variant Also Negotiates";
            case 507 -> "Insufficient Storage";
            case 508 -> "Loop Detected";
            case 510 -> "Not Extended";
            case 511 -> "Network Authentication Required";
            default -> "";
        };
    }
}
