package brokkr.provider.claudecode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the CLI is looked for: the property, the variable, then the project-local install upwards from the working directory. */
class ClaudeCliTest {
    @TempDir
    Path tmp;

    Path executable(String name) throws Exception {
        Path p = tmp.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\necho '1.0.0 (Claude Code)'\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void propertyThenVariableThenTheProjectLocalInstall() throws Exception {
        Path prop = executable("a/claude"), var = executable("b/claude");
        Path project = tmp.resolve("project");
        Files.createDirectories(project.resolve("tools/claude-code"));
        Files.writeString(project.resolve("tools/claude-code/package.json"), "{}");
        Path sub = Files.createDirectories(project.resolve("engine/src"));
        assertEquals(
                prop,
                ClaudeCli.find(prop.toString(), var.toString(), sub)
                        .orElseThrow()
                        .binary());
        assertEquals(
                var, ClaudeCli.find(null, var.toString(), sub).orElseThrow().binary());
        assertTrue(ClaudeCli.find(null, null, sub).isEmpty(), "the project has no install yet");
        Path local = executable("project/" + ClaudeCli.PROJECT_LOCAL);
        assertEquals(local, ClaudeCli.find(null, " ", sub).orElseThrow().binary());
        assertEquals("1.0.0 (Claude Code)", ClaudeCli.at(local).version());
        assertTrue(
                ClaudeCli.find(tmp.resolve("missing").toString(), null, sub).isEmpty(),
                "a named binary that is not there");
    }
}
