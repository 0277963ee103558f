package brokkr.kernel;

import brokkr.command.Command;
import brokkr.command.ErrorMessages;
import brokkr.python.PyJson;
import brokkr.value.Json;
import brokkr.value.PyDict;
import brokkr.value.PyInt;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dflib.jjava.jupyter.kernel.KernelConnectionProperties;

/** The Jupyter connection file {@code kernel run --connection-file F} serves. */
public final class ConnectionFile {
    private ConnectionFile() {}

    private static final List<String> PORTS =
            List.of("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port");

    /**
     * The connection file Jupyter wrote, checked before any socket is opened: a missing, unreadable or
     * malformed file, or one without a field the kernel needs, is an error saying which (the JSON
     * reader and ZeroMQ would say {@code null}, a stack trace or {@code Errno 43}).
     */
    public static KernelConnectionProperties read(Path file) {
        String where = "connection file " + file;
        if (!Files.exists(file)) throw new Command.InputException(where + " does not exist");
        if (!Files.isRegularFile(file)) throw new Command.InputException(where + " is not a regular file");
        String text;
        try {
            text = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new Command.InputException(where + " is not UTF-8 text");
        } catch (IOException e) {
            throw new Command.InputException("cannot read " + where + ": " + ErrorMessages.describe(e));
        }
        if (text.isBlank()) throw new Command.InputException(where + " is empty");
        Value parsed;
        try {
            parsed = Json.parse(text);
        } catch (Json.JsonFormatException e) {
            throw new Command.InputException(where + " is not JSON: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        if (!(parsed instanceof PyDict d)) throw new Command.InputException(where + " is not a JSON object");
        String transport = field(d, where, "transport");
        if (!transport.equals("tcp") && !transport.equals("ipc")) {
            throw new Command.InputException(where + ": transport must be tcp or ipc, not '" + transport + "'");
        }
        if (field(d, where, "ip").isBlank()) throw new Command.InputException(where + ": ip is empty");
        for (String port : PORTS) {
            if (!(d.get(port) instanceof PyInt n) || !n.fitsLong() || n.longValue() < 1 || n.longValue() > 65535) {
                throw new Command.InputException(where + ": " + port + " must be a port number (1-65535), got "
                        + (d.containsKey(port) ? PyJson.dumps(d.get(port)) : "nothing"));
            }
        }
        if (!(d.get("key") instanceof PyStr)) throw new Command.InputException(where + ": key must be a string");
        String scheme = field(d, where, "signature_scheme");
        if (!scheme.startsWith("hmac-"))
            throw new Command.InputException(where + ": signature_scheme must be hmac-<digest>, not '" + scheme + "'");
        return KernelConnectionProperties.parse(text);
    }

    private static String field(PyDict d, String where, String name) {
        if (!(d.get(name) instanceof PyStr s))
            throw new Command.InputException(
                    where + ": " + name + " must be a string" + (d.containsKey(name) ? "" : " (missing)"));
        return s.value();
    }
}
