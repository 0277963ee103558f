package brokkr.domains.bfcl.multiturn.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import brokkr.domains.bfcl.multiturn.Executor;
import brokkr.domains.bfcl.multiturn.TaskSetup;
import brokkr.domains.bfcl.multiturn.World;
import brokkr.python.PyObjects;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TradingBot, TravelAPI and VehicleControlAPI driven through the executor with call strings, as upstream's
 * checker drives them. Expected texts follow upstream's source (func_source_code/*.py at gorilla 6ea5797);
 * random draws and timestamps were computed with CPython 3.11.7 ({@code TZ=UTC}).
 */
class TradingTravelVehicleTest {
    private static final String MODEL = "gpt-4.1-2025-04-14-FC";

    private record Run(World world, TaskSetup task, List<String> results) {
        Map<String, Object> state(String cls) {
            return world.instance(Executor.variable(MODEL, true, task.taskId(), cls))
                    .state(world.globals());
        }
    }

    private static Run run(String taskId, String cls, Object config, String... calls) {
        TaskSetup task =
                new TaskSetup(taskId, List.of(cls), PyObjects.dict(cls, config), TaskSetup.isLongContext(taskId));
        Executor.Execution e = Executor.execute(World.EMPTY, task, MODEL, true, List.of(calls));
        return new Run(e.world(), task, e.results());
    }

    // ---- VehicleControlAPI ----

    @Test
    void lockDoorsKeepsTheDoorsChangedBeforeABadName() {
        Run r = run(
                "multi_turn_base_0",
                "VehicleControlAPI",
                PyObjects.dict(),
                "lockDoors(unlock=False, door=['driver', 'trunk'])",
                "displayCarStatus(option='doors')");
        assertEquals("Error during execution: 'trunk'", r.results().get(0));
        assertEquals(
                "{\"doorStatus\": {\"driver\": \"locked\", \"passenger\": \"unlocked\", \"rear_left\": \"unlocked\", "
                        + "\"rear_right\": \"unlocked\"}}",
                r.results().get(1));
        assertEquals(PyObjects.integer(3), r.state("VehicleControlAPI").get("remainingUnlockedDoors"));
    }

    @Test
    void setNavigationStoresTheDestinationBeforeTheConcatenationFails() {
        Run r = run("multi_turn_base_0", "VehicleControlAPI", PyObjects.dict(), "set_navigation(destination=5)");
        assertEquals(
                "Error during execution: can only concatenate str (not \"int\") to str",
                r.results().get(0));
        assertEquals(PyObjects.integer(5), r.state("VehicleControlAPI").get("destination"));
    }

    @Test
    void startSequenceAndSeededSpeed() {
        Run r = run(
                "multi_turn_base_0",
                "VehicleControlAPI",
                PyObjects.dict("fuelLevel", 15.0),
                "startEngine(ignitionMode='START')",
                "lockDoors(unlock=False, door=['driver', 'passenger', 'rear_left', 'rear_right'])",
                "pressBrakePedal(pedalPosition=0.5)",
                "startEngine(ignitionMode='START')",
                "pressBrakePedal(pedalPosition=True)",
                "startEngine(ignitionMode='START')",
                "get_current_speed()");
        assertEquals(
                "{\"error\": \"All doors must be locked before starting the engine. Here are the unlocked doors: "
                        + "driver, passenger, rear_left, rear_right\"}",
                r.results().get(0));
        assertEquals(
                "{\"error\": \"Must press the brake fully before starting the engine.\"}",
                r.results().get(3));
        // True * 1000 is the int 1000, which == 1000.0.
        assertEquals(
                "{\"brakePedalStatus\": \"pressed\", \"brakePedalForce\": 1000.0}",
                r.results().get(4));
        assertEquals(
                "{\"engineState\": \"running\", \"fuelLevel\": 15.0, \"batteryVoltage\": 12.6}",
                r.results().get(5));
        assertEquals("{\"currentSpeed\": 111.92365689097284}", r.results().get(6));
    }

    @Test
    void arithmeticOnRawArguments() {
        Run r = run(
                "multi_turn_base_0",
                "VehicleControlAPI",
                PyObjects.dict(),
                "liter_to_gallon(liter='5')",
                "gallon_to_liter(gallon=True)",
                "fillFuelTank(fuelAmount='x')",
                "adjustClimateControl(temperature='hot', unit='fahrenheit')",
                "setCruiseControl(speed='x', activate=True, distanceToNextVehicle=5)");
        assertEquals(
                "Error during execution: can't multiply sequence by non-int of type 'float'",
                r.results().get(0));
        assertEquals("{\"liter\": 3.78541}", r.results().get(1));
        assertEquals(
                "Error during execution: '<' not supported between instances of 'str' and 'int'",
                r.results().get(2));
        assertEquals(
                "Error during execution: unsupported operand type(s) for -: 'str' and 'int'",
                r.results().get(3));
        assertEquals("hot", r.state("VehicleControlAPI").get("acTemperature"));
        assertEquals(
                "Error during execution: could not convert string to float: 'x'",
                r.results().get(4));
    }

    // ---- TradingBot ----

    @Test
    void tradingTimestampsAndKeyUnification() {
        Run r = run(
                "multi_turn_base_0",
                "TradingBot",
                PyObjects.dict("market_status", "Open"),
                "trading_login(username='u', password='p')",
                "fund_account(amount=100)",
                "get_order_details(order_id=12345.0)",
                "place_order(order_type=5, symbol='AAPL', price=1.0, amount=1)",
                "cancel_order(order_id=True)",
                "get_transaction_history(start_date='2024-09-02')",
                "get_transaction_history(start_date='bad')");
        assertEquals(
                "{\"status\": \"Account funded successfully\", \"new_balance\": 10100.0}",
                r.results().get(1));
        assertEquals(
                "{\"id\": 12345, \"order_type\": \"Buy\", \"symbol\": \"AAPL\", \"price\": 210.65, \"amount\": 10, "
                        + "\"status\": \"Completed\"}",
                r.results().get(2));
        assertEquals(
                "Error during execution: 'int' object has no attribute 'lower'",
                r.results().get(3));
        assertEquals(
                "{\"error\": \"Order with ID True not found.\"}", r.results().get(4));
        // random.Random(1053520).randint(1725186600, 1725273000) == 1725255615, i.e. 2024-09-02 05:40:15 UTC.
        assertEquals(
                "{\"transaction_history\": [{\"type\": \"deposit\", \"amount\": 100, \"timestamp\": \"2024-09-02 05:40:15\"}]}",
                r.results().get(5));
        assertEquals(
                "Error during execution: time data 'bad' does not match format '%Y-%m-%d'",
                r.results().get(6));
    }

    @Test
    void ordersKeepNonDigitKeysAndStrValues() {
        Run r = run(
                "multi_turn_base_0",
                "TradingBot",
                PyObjects.dict(
                        "orders",
                        PyObjects.dict("12345", PyObjects.dict("status", "Completed"), "order_type", "Buy"),
                        "authenticated",
                        true),
                "get_order_history()",
                "get_order_details(order_id='order_type')",
                "cancel_order(order_id='order_type')");
        assertEquals("{\"history\": [12345, \"order_type\"]}", r.results().get(0));
        assertEquals("Buy", r.results().get(1));
        assertEquals(
                "Error during execution: string indices must be integers, not 'str'",
                r.results().get(2));
    }

    // ---- TravelAPI ----

    private static Object travelConfig() {
        return PyObjects.dict(
                "access_token",
                "tok",
                "token_expires_in",
                PyObjects.integer(3600),
                "user_first_name",
                "Ada",
                "user_last_name",
                "Byron",
                "budget_limit",
                100.0,
                "credit_card_list",
                PyObjects.dict("card_1", PyObjects.dict("balance", 5000.0)));
    }

    @Test
    void travelerAgeOnThePinnedDay() {
        Run r = run(
                "multi_turn_base_0",
                "TravelAPI",
                travelConfig(),
                "verify_traveler_information(first_name='Ada', last_name='Byron', date_of_birth='2008-03-23', passport_number='US1')",
                "verify_traveler_information(first_name='Ada', last_name='Byron', date_of_birth='2008-03-24', passport_number='US1')",
                "verify_traveler_information(first_name='Ada', last_name='Byron', date_of_birth='1990-01-01', passport_number='UK1')",
                "verify_traveler_information(first_name='Ada', last_name='B', date_of_birth='1990-01-01', passport_number='US1')");
        assertEquals("{\"verification_status\": true}", r.results().get(0));
        assertEquals(
                "{\"verification_status\": false, \"verification_failure\": \"Traveler must be at least 18 years old.\"}",
                r.results().get(1));
        assertEquals(
                "{\"verification_status\": false, \"verification_failure\": \"Passport must be issued by the United States.\"}",
                r.results().get(2));
        assertEquals(
                "{\"verification_status\": false, \"verification_failure\": \"Cannot book flight information for another "
                        + "user.Expected Ada Byron, got Ada B\"}",
                r.results().get(3));
    }

    @Test
    void bookingAndExchange() {
        Run r = run(
                "multi_turn_base_0",
                "TravelAPI",
                travelConfig(),
                "book_flight(access_token='tok', card_id='card_1', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='coach')",
                "book_flight(access_token='tok', card_id='card_1', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='first')",
                "compute_exchange_rate(base_currency='USD', target_currency='RMB', value='5')",
                "compute_exchange_rate(base_currency='GBP', target_currency='USD', value=100)",
                "get_flight_cost(travel_from='SFO', travel_to='XXX', travel_date='2024-12-15', travel_class='first')");
        // The set's repr in str-hash order under PYTHONHASHSEED=0 (the corpora's setting).
        assertEquals(
                "{\"booking_status\": false, \"error\": \"Invalid travel class. Must be one of {'first', 'business', 'economy'}\"}",
                r.results().get(0));
        // SFO-LAX 200 * 5 (first) * 1 (digit sum 2+0+2+4+1+2+1+5 = 17 is odd) = 1000.0 off the card.
        assertTrue(
                r.results().get(1).startsWith("{\"booking_id\": \""),
                r.results().get(1));
        assertEquals(
                4000.0,
                ((Map<?, ?>) ((Map<?, ?>) r.state("TravelAPI").get("credit_card_list")).get("card_1")).get("balance"));
        assertEquals("{\"exchanged_value\": 5555555.0}", r.results().get(2));
        assertEquals("{\"exchanged_value\": 142.86}", r.results().get(3));
        assertEquals(
                "Error during execution: No available route for the given airports.",
                r.results().get(4));
    }

    /** long_context.CREDIT_CARD_EXTENSION cards are shared by reference between the model's and the ground truth's instances. */
    @Test
    void extensionCardsAreSharedAcrossInstances() {
        String id = "multi_turn_long_context_0";
        TaskSetup task = new TaskSetup(id, List.of("TravelAPI"), PyObjects.dict("TravelAPI", travelConfig()), true);
        Executor.Execution model = Executor.execute(
                World.EMPTY,
                task,
                MODEL,
                true,
                List.of(
                        "book_flight(access_token='tok', card_id='1234567812345678', travel_date='2024-12-15', travel_from='SFO', "
                                + "travel_to='LAX', travel_class='first')"));
        Executor.Execution gt = Executor.execute(
                model.world(),
                task,
                MODEL + "_ground_truth",
                true,
                List.of("get_credit_card_balance(access_token='tok', card_id='1234567812345678')"));
        assertTrue(
                model.results().get(0).contains("\"booking_status\": true"),
                model.results().get(0));
        assertEquals("{\"card_balance\": 4000.0}", gt.results().get(0));
    }
}
