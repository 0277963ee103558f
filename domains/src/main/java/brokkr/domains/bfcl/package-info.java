/**
 * BFCL single-turn (the eleven Python categories, {@link brokkr.domains.bfcl.BfclCategory}), benchmark {@code bfcl}
 * ({@link brokkr.domains.bfcl.BfclBenchmark}), from gorilla's {@code berkeley-function-call-leaderboard/bfcl_eval} at
 * commit 6ea5797: the pinned data files ({@link brokkr.domains.bfcl.BfclData}), the tool specs a function-calling model
 * is given ({@link brokkr.domains.bfcl.ToolCompiler}, model_handler/utils.py), how a response becomes the decoded answer
 * ({@link brokkr.domains.bfcl.BfclHarness}), and grading by upstream's AST checker with its quirks kept on purpose
 * ({@link brokkr.domains.bfcl.AstChecker}, eval_checker/ast_eval/ast_checker.py; the verdict of eval_runner.py in
 * {@link brokkr.domains.bfcl.BfclGrader}), over {@link brokkr.domains.bfcl.PyObj} (the engine's values plus
 * {@code tuple}). {@link brokkr.domains.bfcl.BfclScores} and {@link brokkr.domains.bfcl.BfclResultsExport} give upstream's
 * report and result files; {@link brokkr.domains.bfcl.BfclConformance} replays verdict corpora recorded from its checker.
 */
package brokkr.domains.bfcl;
