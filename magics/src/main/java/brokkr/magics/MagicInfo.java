package brokkr.magics;

/**
 * What {@code %help} says about a magic.
 * @param cell     true for a cell magic ({@code %%name})
 * @param synopsis the usage line, e.g. {@code %tasks [--split S] [TEXT]}
 * @param help     what it does, a few lines
 */
public record MagicInfo(String name, boolean cell, String synopsis, String help) {
    public String prefixed() {
        return (cell ? "%%" : "%") + name;
    }
}
