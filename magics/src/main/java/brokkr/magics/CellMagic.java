package brokkr.magics;

/** A cell magic ({@code %%name args} on a cell's first line): the line's arguments and the cell body. */
@FunctionalInterface
public interface CellMagic {
    Object eval(Session session, MagicArgs args, String body) throws Exception;
}
