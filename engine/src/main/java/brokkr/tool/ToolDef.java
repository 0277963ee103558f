package brokkr.tool;

import java.util.List;

/**
 * A transcribed tool: its name, the Python qualified name used in binding errors (e.g.
 * {@code RetailTools.get_order_details}), its parameters, its body, and whether it writes the world.
 */
public record ToolDef(String name, String qualname, List<Param> params, ToolFunction body, boolean mutates) {
    public ToolDef {
        params = List.copyOf(params);
    }
}
