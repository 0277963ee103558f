/**
 * BFCL multi-turn's backend classes, statement by statement from gorilla's
 * {@code bfcl_eval/eval_checker/multi_turn_eval/func_source_code/*.py}:
 * {@link brokkr.domains.bfcl.multiturn.backends.GorillaFileSystem} (gorilla_file_system.py),
 * {@link brokkr.domains.bfcl.multiturn.backends.MathAPI} (math_api.py), {@link brokkr.domains.bfcl.multiturn.backends.MessageAPI}
 * (message_api.py), {@link brokkr.domains.bfcl.multiturn.backends.TwitterAPI} (posting_api.py),
 * {@link brokkr.domains.bfcl.multiturn.backends.TicketAPI} (ticket_api.py), {@link brokkr.domains.bfcl.multiturn.backends.TradingBot}
 * (trading_bot.py), {@link brokkr.domains.bfcl.multiturn.backends.TravelAPI} (travel_booking.py) and
 * {@link brokkr.domains.bfcl.multiturn.backends.VehicleControlAPI} (vehicle_control.py). Each is an immutable {@code Backend}
 * found by its upstream class name through its {@code CLASS} field (no list to edit); upstream's aliasing and in-place
 * mutation are reproduced with persistent heaps and process-global cells. The CPython and library behaviour they reach is
 * spelled here too: {@code PyDyn} (operations on raw arguments), {@code PyStrptime}, {@code Mpmath} and {@code Seeds}.
 */
package brokkr.domains.bfcl.multiturn.backends;
