/**
 * The magics framework and the session it runs in: {@link brokkr.magics.LineMagic}, {@link brokkr.magics.CellMagic},
 * {@link brokkr.magics.MagicRegistry} (with the always-present {@link brokkr.magics.StandardMagics}), arguments,
 * completion, usage errors, {@link brokkr.magics.MagicExtension} services and {@link brokkr.magics.Display};
 * the {@link brokkr.magics.Session} with its loaded domain ({@link brokkr.magics.Bench}, {@link brokkr.magics.Benches},
 * {@link brokkr.magics.DomainSummary}) and {@link brokkr.magics.Sweeps}. These stay one package because they refer
 * to each other (a magic runs on a session, the session holds its registry, the standard magics read the session):
 * apart they would be a package cycle. Views are in {@link brokkr.magics.view}, the service magics in
 * {@link brokkr.magics.builtin}, the renderer registry in {@link brokkr.magics.display}; notebooks and the REPL
 * import all four ({@code JShellEvaluator.DEFAULT_IMPORTS}).
 */
package brokkr.magics;
