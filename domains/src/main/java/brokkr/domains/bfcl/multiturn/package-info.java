/**
 * BFCL v4 multi-turn, benchmark {@code bfcl-multi-turn} ({@link brokkr.domains.bfcl.multiturn.MultiTurnBenchmark}), from
 * gorilla's {@code bfcl_eval}: the inference loop {@code base_handler.inference_multi_turn_FC}
 * ({@link brokkr.domains.bfcl.multiturn.MultiTurnInference}), {@code multi_turn_utils.execute_multi_turn_func_call}
 * ({@link brokkr.domains.bfcl.multiturn.Executor}, call strings parsed and evaluated as CPython's {@code eval} would, with
 * its error texts) and {@code multi_turn_checker.py} ({@link brokkr.domains.bfcl.multiturn.MultiTurnChecker}). Backend
 * instances are immutable values ({@link brokkr.domains.bfcl.multiturn.Backend}; the classes are in {@code backends}) in a
 * {@link brokkr.domains.bfcl.multiturn.World} that also holds the process-global state upstream's objects share by
 * reference ({@link brokkr.domains.bfcl.multiturn.Globals}), so forking is O(1) and in-place quirks survive.
 * {@link brokkr.domains.bfcl.multiturn.MultiTurnHarness} plays the same turns with Brokkr's agent loop;
 * {@link brokkr.domains.bfcl.multiturn.MultiTurnConformance} and {@link brokkr.domains.bfcl.multiturn.MultiTurnVerdicts}
 * replay the execution and verdict corpora.
 */
package brokkr.domains.bfcl.multiturn;
