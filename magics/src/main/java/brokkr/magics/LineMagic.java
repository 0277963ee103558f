package brokkr.magics;

/**
 * A line magic ({@code %name args}): a function of the session and the rest of the line. It returns
 * the value the cell shows (and a {@code var x = %name args} line binds), or null for nothing.
 * Wrong arguments throw {@link MagicUsageException}, which front ends print as the magic's usage.
 */
@FunctionalInterface
public interface LineMagic {
    Object eval(Session session, MagicArgs args) throws Exception;
}
