package brokkr.domains.bfcl.multiturn;

import brokkr.python.PyObjects;

/**
 * A reference to a process-global list ({@link Globals} cell {@code cell}, initially empty) held inside
 * backend values where upstream holds one list object by reference in several places (the default
 * {@code mentions=[]} of {@code TwitterAPI.post_tweet}, shared by every tweet posted without it).
 * {@link Globals#resolve} replaces it by the cell's current list wherever a result is rendered or a
 * state compared, so a change through any holder shows in all of them.
 */
public record SharedList(String cell) implements PyObjects.Custom {
    @Override
    public String pyTypeName() {
        return "list";
    }

    @Override
    public String pyRepr() {
        return "<shared list " + cell + ">";
    }
}
