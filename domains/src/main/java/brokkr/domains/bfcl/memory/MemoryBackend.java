package brokkr.domains.bfcl.memory;

import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.Globals;

/** What the harness (not the model) does with a memory backend instance: upstream's underscore methods. */
public interface MemoryBackend extends Backend {
    /** {@code _flush_memory_to_local_file()}: the files written into the world's snapshot files. */
    Globals flush(Globals g);

    /** {@code _dump_core_memory_to_context()}: what the system prompt embeds. */
    String contextDump();
}
