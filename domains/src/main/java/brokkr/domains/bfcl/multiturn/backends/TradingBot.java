package brokkr.domains.bfcl.multiturn.backends;

import static brokkr.domains.bfcl.multiturn.Method.Param.optional;
import static brokkr.domains.bfcl.multiturn.Method.Param.required;

import brokkr.domains.bfcl.BfclData;
import brokkr.domains.bfcl.multiturn.Backend;
import brokkr.domains.bfcl.multiturn.BackendClass;
import brokkr.domains.bfcl.multiturn.Globals;
import brokkr.domains.bfcl.multiturn.Live;
import brokkr.domains.bfcl.multiturn.LongContextData;
import brokkr.domains.bfcl.multiturn.Method;
import brokkr.domains.bfcl.multiturn.Outcome;
import brokkr.python.ArrayVector;
import brokkr.python.PyBuiltins;
import brokkr.python.PyObjectOps;
import brokkr.python.PyObjects;
import brokkr.python.PyRandom;
import brokkr.value.PyNone;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pcollections.OrderedPMap;
import org.pcollections.PVector;

/**
 * Upstream's {@code TradingBot} (func_source_code/trading_bot.py) as an immutable value: the public
 * attributes in {@code vars()} order and the instance's {@code random.Random} (transaction timestamps).
 * Methods are upstream's statement by statement, on raw arguments.
 */
public record TradingBot(OrderedPMap<String, Object> attrs, PyRandom random) implements Backend {

    /** {@code CURRENT_TIME = datetime(2024, 9, 1, 10, 30)}. */
    private static final LocalDateTime CURRENT_TIME = LocalDateTime.of(2024, 9, 1, 10, 30);

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    @Override
    public Map<String, Object> state(Globals globals) {
        return attrs;
    }

    Object get(String attr) {
        return attrs.get(attr);
    }

    TradingBot with(String attr, Object value) {
        return new TradingBot(attrs.plus(attr, value), random);
    }

    boolean longContext() {
        return PyObjects.truthy(get("long_context"));
    }

    Map<?, ?> orders() {
        return (Map<?, ?>) get("orders");
    }

    Map<?, ?> stocks() {
        return (Map<?, ?>) get("stocks");
    }

    private static Object ext(String name) {
        return LongContextData.get().value(name);
    }

    private static Outcome ok(TradingBot t, Globals g, Object result) {
        return new Outcome(t, g, result);
    }

    private static OrderedPMap<Object, Object> error(String text) {
        return PyObjects.dict("error", text);
    }

    static Outcome load(Object config, boolean longContext, Globals g) {
        Map<?, ?> sc = (Map<?, ?>) config;
        OrderedPMap<String, Object> a = OrderedPMap.empty();
        Map<?, ?> orders = (Map<?, ?>) (sc.containsKey("orders") ? sc.get("orders") : defaultOrders());
        // Every str key that str.isdigit() accepts becomes an int key (other keys, e.g. 'order_type', stay).
        OrderedPMap<Object, Object> converted = OrderedPMap.empty();
        for (Map.Entry<?, ?> e : orders.entrySet()) {
            Object k = e.getKey();
            if (k instanceof String s && isDigit(s)) k = new BigInteger(asciiDigits(s));
            converted = PyObjects.setItem(converted, k, e.getValue());
        }
        a = a.plus("orders", converted);
        a = a.plus(
                "account_info",
                or(
                        sc,
                        "account_info",
                        PyObjects.dict(
                                "account_id",
                                PyObjects.integer(12345),
                                "balance",
                                10000.0,
                                "binding_card",
                                PyObjects.integer(1974202140965533L))));
        a = a.plus("authenticated", or(sc, "authenticated", false));
        a = a.plus("market_status", or(sc, "market_status", "Closed"));
        a = a.plus("order_counter", or(sc, "order_counter", PyObjects.integer(12446)));
        a = a.plus("stocks", sc.containsKey("stocks") ? sc.get("stocks") : defaultStocks());
        a = a.plus("watch_list", or(sc, "watch_list", PyObjects.list("NVDA")));
        a = a.plus("transaction_history", or(sc, "transaction_history", PyObjects.list()));
        a = a.plus("long_context", longContext);
        PyRandom random =
                Seeds.random(sc.containsKey("random_seed") ? sc.get("random_seed") : PyObjects.integer(1053520));
        return new Outcome(new TradingBot(a, random), g, PyNone.NONE);
    }

    /** {@code str.isdigit()} (Unicode digits included) on a non-empty string. */
    private static boolean isDigit(String s) {
        if (s.isEmpty()) return false;
        return s.codePoints().allMatch(cp -> Character.getType(cp) == Character.DECIMAL_DIGIT_NUMBER);
    }

    private static String asciiDigits(String s) {
        StringBuilder sb = new StringBuilder();
        s.codePoints().forEach(cp -> sb.append(Character.digit(cp, 10)));
        return sb.toString();
    }

    private static Object or(Map<?, ?> sc, String key, Object dflt) {
        return sc.containsKey(key) ? sc.get(key) : dflt;
    }

    private static OrderedPMap<Object, Object> order(
            long id, String type, String symbol, double price, long amount, String status) {
        return PyObjects.dict(
                "id",
                PyObjects.integer(id),
                "order_type",
                type,
                "symbol",
                symbol,
                "price",
                price,
                "amount",
                PyObjects.integer(amount),
                "status",
                status);
    }

    private static OrderedPMap<Object, Object> defaultOrders() {
        return PyObjects.dict(
                PyObjects.integer(12345),
                order(12345, "Buy", "AAPL", 210.65, 10, "Completed"),
                PyObjects.integer(12446),
                order(12446, "Sell", "GOOG", 2840.56, 5, "Pending"));
    }

    private static OrderedPMap<Object, Object> stock(
            double price, double change, double volume, double ma5, double ma20) {
        return PyObjects.dict("price", price, "percent_change", change, "volume", volume, "MA(5)", ma5, "MA(20)", ma20);
    }

    private static OrderedPMap<Object, Object> defaultStocks() {
        return PyObjects.dict(
                "AAPL", stock(227.16, 0.17, 2.552, 227.11, 227.09),
                "GOOG", stock(2840.34, 0.24, 1.123, 2835.67, 2842.15),
                "TSLA", stock(667.92, -0.12, 1.654, 671.15, 668.20),
                "MSFT", stock(310.23, 0.09, 3.234, 309.88, 310.11),
                "NVDA", stock(220.34, 0.34, 1.234, 220.45, 220.67),
                "ALPH", stock(1320.45, -0.08, 1.567, 1321.12, 1325.78),
                "OMEG", stock(457.23, 0.12, 2.345, 456.78, 458.12),
                "QUAS", stock(725.89, -0.03, 1.789, 726.45, 728.00),
                "NEPT", stock(88.34, 0.19, 0.654, 88.21, 88.67),
                "SYNX", stock(345.67, 0.11, 2.112, 345.34, 346.12),
                "ZETA", stock(22.09, -0.05, 0.789, 22.12, 22.34));
    }

    /**
     * {@code _generate_transaction_timestamp}: a uniform int between {@code CURRENT_TIME.timestamp()} and one day
     * later, formatted with {@code fromtimestamp}. Both go through the local zone; the corpora were recorded
     * with {@code TZ=UTC}, so UTC here.
     */
    private static PyRandom.Draw<String> timestamp(PyRandom r) {
        long start = CURRENT_TIME.toEpochSecond(ZoneOffset.UTC);
        PyRandom.Draw<Long> d = r.randint(start, start + 86400);
        String text = LocalDateTime.ofInstant(Instant.ofEpochSecond(d.value()), ZoneOffset.UTC)
                .format(TIMESTAMP);
        return new PyRandom.Draw<>(text, d.next());
    }

    // ---- methods ----

    static Outcome getCurrentTime(Backend self, Object[] a, Globals g) {
        return ok((TradingBot) self, g, PyObjects.dict("current_time", "10:30 AM"));
    }

    private static final OrderedPMap<Object, Object> SYMBOLS = PyObjects.dict(
            "Apple",
            "AAPL",
            "Google",
            "GOOG",
            "Tesla",
            "TSLA",
            "Microsoft",
            "MSFT",
            "Nvidia",
            "NVDA",
            "Zeta Corp",
            "ZETA",
            "Alpha Tech",
            "ALPH",
            "Omega Industries",
            "OMEG",
            "Quasar Ltd.",
            "QUAS",
            "Neptune Systems",
            "NEPT",
            "Synex Solutions",
            "SYNX",
            "Amazon",
            "AMZN",
            "Gorilla",
            "GORI");

    static Outcome getSymbolByName(Backend self, Object[] a, Globals g) {
        return ok((TradingBot) self, g, PyObjects.dict("symbol", PyObjects.get(SYMBOLS, a[0], "Stock not found")));
    }

    static Outcome getStockInfo(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object symbol = a[0];
        if (!PyObjects.containsKey(t.stocks(), symbol))
            return ok(t, g, error("Stock with symbol '" + PyObjects.str(symbol) + "' not found."));
        Object stock = PyObjectOps.getItem(t.stocks(), symbol);
        if (t.longContext()) {
            if (!(stock instanceof Map<?, ?> m)) throw PyDyn.noAttribute(stock, "copy");
            return ok(
                    t,
                    g,
                    PyObjects.setItem(
                            PyObjects.setItem(m, "MA(5)", ext("MA_5_EXTENSION")), "MA(20)", ext("MA_20_EXTENSION")));
        }
        return ok(t, g, stock);
    }

    static Outcome getOrderDetails(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object orderId = a[0];
        if (!PyObjects.containsKey(t.orders(), orderId)) {
            return ok(
                    t,
                    g,
                    error("Order with ID " + PyObjects.str(orderId) + " not found." + "Here is the list of orders_id: "
                            + PyObjects.repr(
                                    ArrayVector.from(new ArrayList<>(t.orders().keySet())))));
        }
        Object order = PyObjectOps.getItem(t.orders(), orderId);
        if (t.longContext()) {
            if (!(order instanceof Map<?, ?> m)) throw PyDyn.noAttribute(order, "copy");
            Object symbol = PyObjectOps.getItem(m, "symbol");
            OrderedPMap<Object, Object> formatted = OrderedPMap.empty();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) ext("ORDER_DETAIL_EXTENSION")).entrySet()) {
                formatted = formatted.plus(e.getKey(), formatSymbol((String) e.getValue(), symbol));
            }
            return ok(t, g, PyObjects.setItem(m, "metadata", formatted));
        }
        // The stored order itself: a later cancel_order of the same call string shows in it.
        Object key = PyObjects.findKey(t.orders(), orderId);
        return ok(t, g, new Live(order, b -> ((TradingBot) b).orders().get(key)));
    }

    /** {@code template.format(symbol=symbol)} for templates whose only field is {@code {symbol}} (and no {@code {{ }}}). */
    private static String formatSymbol(String template, Object symbol) {
        return template.replace("{symbol}", PyObjects.str(symbol));
    }

    static Outcome cancelOrder(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object orderId = a[0];
        if (!PyObjects.containsKey(t.orders(), orderId))
            return ok(t, g, error("Order with ID " + PyObjects.str(orderId) + " not found."));
        Object order = PyObjectOps.getItem(t.orders(), orderId);
        if (PyObjects.eq(PyObjectOps.getItem(order, "status"), "Completed")) {
            return ok(t, g, error("Can't cancel order " + PyObjects.str(orderId) + ". Order is already completed."));
        }
        Map<?, ?> m = (Map<?, ?>) order;
        t = t.with("orders", PyObjects.setItem(t.orders(), orderId, PyObjects.setItem(m, "status", "Cancelled")));
        return ok(t, g, PyObjects.dict("order_id", orderId, "status", "Cancelled"));
    }

    static Outcome placeOrder(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object orderType = a[0], symbol = a[1], price = a[2], amount = a[3];
        if (!PyObjects.truthy(t.get("authenticated")))
            return ok(t, g, error("User not authenticated. Please log in to place an order."));
        if (!PyObjects.containsKey(t.stocks(), symbol))
            return ok(t, g, error("Invalid stock symbol: " + PyObjects.str(symbol)));
        if (PyObjectOps.le(price, BigInteger.ZERO) || PyObjectOps.le(amount, BigInteger.ZERO)) {
            return ok(t, g, error("Price and amount must be positive values."));
        }
        if (!(orderType instanceof String type)) throw PyDyn.noAttribute(orderType, "lower");
        Map<?, ?> account = (Map<?, ?>) t.get("account_info");
        if (type.toLowerCase(java.util.Locale.ROOT).equals("buy")) {
            Object totalCost = PyObjectOps.mul(
                    PyBuiltins.floatOfObject(price, BfclData.PYTHON),
                    PyBuiltins.intOfObject(amount, BfclData.PYTHON),
                    "*");
            Object balance = PyObjects.get(account, "balance", BigInteger.ZERO);
            if (PyObjectOps.gt(totalCost, balance)) {
                return ok(
                        t,
                        g,
                        error("Insufficient funds: required $" + PyDyn.fixed2(totalCost) + " but only $"
                                + PyDyn.fixed2(PyObjects.get(account, "balance", BigInteger.ZERO)) + " available."));
            }
        }
        double fprice = PyBuiltins.floatOfObject(price, BfclData.PYTHON);
        Object orderId = t.get("order_counter");
        OrderedPMap<Object, Object> order = PyObjects.dict(
                "id",
                orderId,
                "order_type",
                orderType,
                "symbol",
                symbol,
                "price",
                fprice,
                "amount",
                amount,
                "status",
                "Open");
        t = t.with("orders", PyObjects.setItem(t.orders(), orderId, order));
        t = t.with("order_counter", PyObjectOps.add(orderId, BigInteger.ONE, "+="));
        return ok(
                t,
                g,
                PyObjects.dict(
                        "order_id",
                        orderId,
                        "order_type",
                        orderType,
                        "status",
                        "Pending",
                        "price",
                        fprice,
                        "amount",
                        amount));
    }

    static Outcome withdrawFunds(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object amount = a[0];
        if (!PyObjects.truthy(t.get("authenticated")))
            return ok(t, g, error("User not authenticated. Please log in to make a transaction."));
        if (!PyObjects.eq(t.get("market_status"), "Open"))
            return ok(t, g, error("Market is closed. Transactions are not allowed."));
        if (PyObjectOps.le(amount, BigInteger.ZERO)) return ok(t, g, error("Transaction amount must be positive."));
        Map<?, ?> account = (Map<?, ?>) t.get("account_info");
        if (PyObjectOps.gt(amount, PyObjectOps.getItem(account, "balance")))
            return ok(t, g, error("Insufficient funds for withdrawal."));
        Object balance = PyObjectOps.sub(PyObjectOps.getItem(account, "balance"), amount, "-=");
        t = t.with("account_info", PyObjects.setItem(account, "balance", balance));
        return transaction(
                t, g, "withdrawal", amount, PyObjects.dict("status", "Withdrawal successful", "new_balance", balance));
    }

    private static Outcome transaction(TradingBot t, Globals g, String type, Object amount, Object result) {
        PyRandom.Draw<String> ts = timestamp(t.random);
        PVector<Object> history = PyDyn.vector((List<?>) t.get("transaction_history"));
        history = history.plus(PyObjects.dict("type", type, "amount", amount, "timestamp", ts.value()));
        return ok(new TradingBot(t.attrs.plus("transaction_history", history), ts.next()), g, result);
    }

    static Outcome getAccountInfo(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        if (!PyObjects.truthy(t.get("authenticated")))
            return ok(t, g, error("User not authenticated. Please log in to view account information."));
        // The stored dict itself, changed in place by fund_account/withdraw_funds later in the same call string.
        return ok(t, g, new Live(t.get("account_info"), b -> ((TradingBot) b).get("account_info")));
    }

    static Outcome tradingLogin(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        if (PyObjects.truthy(t.get("authenticated"))) return ok(t, g, PyObjects.dict("status", "Already logged in"));
        return ok(t.with("authenticated", true), g, PyObjects.dict("status", "Logged in successfully"));
    }

    static Outcome tradingGetLoginStatus(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        return ok(t, g, PyObjects.dict("status", PyObjects.truthy(t.get("authenticated"))));
    }

    static Outcome tradingLogout(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        if (!PyObjects.truthy(t.get("authenticated")))
            return ok(t, g, PyObjects.dict("status", "No user is currently logged in"));
        return ok(t.with("authenticated", false), g, PyObjects.dict("status", "Logged out successfully"));
    }

    static Outcome fundAccount(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object amount = a[0];
        if (!PyObjects.truthy(t.get("authenticated")))
            return ok(t, g, error("User not authenticated. Please log in to fund the account."));
        if (PyObjectOps.le(amount, BigInteger.ZERO)) return ok(t, g, error("Funding amount must be positive."));
        Map<?, ?> account = (Map<?, ?>) t.get("account_info");
        Object balance = PyObjectOps.add(PyObjectOps.getItem(account, "balance"), amount, "+=");
        t = t.with("account_info", PyObjects.setItem(account, "balance", balance));
        return transaction(
                t,
                g,
                "deposit",
                amount,
                PyObjects.dict("status", "Account funded successfully", "new_balance", balance));
    }

    static Outcome removeStockFromWatchlist(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object symbol = a[0];
        if (!PyObjects.truthy(t.get("authenticated")))
            return ok(t, g, error("User not authenticated. Please log in to modify the watchlist."));
        List<?> watch = (List<?>) t.get("watch_list");
        if (!PyObjectOps.in(symbol, watch))
            return ok(t, g, error("Stock " + PyObjects.str(symbol) + " not found in watchlist."));
        List<Object> out = new ArrayList<>(watch);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) == symbol || PyObjects.eq(out.get(i), symbol)) {
                out.remove(i);
                break;
            }
        }
        t = t.with("watch_list", ArrayVector.from(out));
        return ok(
                t,
                g,
                PyObjects.dict("status", "Stock " + PyObjects.str(symbol) + " removed from watchlist successfully."));
    }

    static Outcome getWatchlist(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        if (!PyObjects.truthy(t.get("authenticated"))) {
            return ok(t, g, PyObjects.list("Error: User not authenticated. Please log in to view the watchlist."));
        }
        if (t.longContext()) return ok(t, g, longWatchlist(t.get("watch_list"), ext("WATCH_LIST_EXTENSION")));
        return ok(t, g, PyObjects.dict("watchlist", t.get("watch_list")));
    }

    static Outcome getOrderHistory(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        if (!PyObjects.truthy(t.get("authenticated"))) {
            return ok(t, g, PyObjects.list(error("User not authenticated. Please log in to view order history.")));
        }
        return ok(
                t,
                g,
                PyObjects.dict(
                        "history", ArrayVector.from(new ArrayList<>(t.orders().keySet()))));
    }

    static Outcome getTransactionHistory(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        if (!PyObjects.truthy(t.get("authenticated"))) {
            return ok(
                    t, g, PyObjects.list(error("User not authenticated. Please log in to view transaction history.")));
        }
        LocalDateTime start = PyObjects.truthy(a[0]) ? PyStrptime.parse(a[0], "%Y-%m-%d") : LocalDateTime.MIN;
        LocalDateTime end = PyObjects.truthy(a[1]) ? PyStrptime.parse(a[1], "%Y-%m-%d") : LocalDateTime.MAX;
        List<Object> filtered = new ArrayList<>();
        for (Object tr : (List<?>) t.get("transaction_history")) {
            if (!start.isAfter(PyStrptime.parse(PyObjectOps.getItem(tr, "timestamp"), "%Y-%m-%d %H:%M:%S"))
                    && !PyStrptime.parse(PyObjectOps.getItem(tr, "timestamp"), "%Y-%m-%d %H:%M:%S")
                            .isAfter(end)) {
                filtered.add(tr);
            }
        }
        if (t.longContext()) filtered.addAll((List<?>) ext("TRANSACTION_HISTORY_EXTENSION"));
        return ok(t, g, PyObjects.dict("transaction_history", ArrayVector.from(filtered)));
    }

    static Outcome getAvailableStocks(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Map<?, ?> sectors = t.longContext() ? longSectors() : SECTORS;
        return ok(t, g, PyObjects.dict("stock_list", PyObjects.get(sectors, a[0], PyObjects.list())));
    }

    /** get_available_stocks' sectors: a constant (the lists are never changed in place). */
    private static final OrderedPMap<Object, Object> SECTORS = sectors(List.of(), List.of());

    private static OrderedPMap<Object, Object> sectors(List<?> techExtension, List<?> autoExtension) {
        List<Object> tech = new ArrayList<>(List.of("AAPL", "GOOG", "MSFT", "NVDA"));
        List<Object> auto = new ArrayList<>(List.of("TSLA", "F", "GM"));
        tech.addAll(techExtension);
        auto.addAll(autoExtension);
        return PyObjects.dict("Technology", ArrayVector.from(tech), "Automobile", ArrayVector.from(auto));
    }

    /** The long-context sectors, made once per extension data (the same list objects each call: their texts are remembered). */
    private record LongSectors(Object tech, Object auto, OrderedPMap<Object, Object> sectors) {}

    private static volatile LongSectors longSectors;

    private static OrderedPMap<Object, Object> longSectors() {
        Object tech = ext("TECHNOLOGY_EXTENSION"), auto = ext("AUTOMOBILE_EXTENSION");
        LongSectors known = longSectors;
        if (known == null || known.tech != tech || known.auto != auto)
            longSectors = known = new LongSectors(tech, auto, sectors((List<?>) tech, (List<?>) auto));
        return known.sectors;
    }

    /** {@code self.watch_list + WATCH_LIST_EXTENSION} as last made (a pure function of the two lists' objects). */
    private record LongWatchlist(Object watchList, Object extension, Object list) {}

    private static volatile LongWatchlist longWatchlist;

    private static Object longWatchlist(Object watchList, Object extension) {
        LongWatchlist known = longWatchlist;
        if (known != null && known.watchList == watchList && known.extension == extension) return known.list;
        List<Object> out = new ArrayList<>((List<?>) watchList);
        out.addAll((List<?>) extension);
        Object list = ArrayVector.from(out);
        longWatchlist = new LongWatchlist(watchList, extension, list);
        return list;
    }

    static Outcome filterStocksByPrice(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object minPrice = a[1], maxPrice = a[2];
        List<Object> out = new ArrayList<>();
        for (Object symbol : PyObjectOps.iterate(a[0])) {
            if (PyObjectOps.ge(price(t, symbol), minPrice) && PyObjectOps.le(price(t, symbol), maxPrice))
                out.add(symbol);
        }
        return ok(t, g, PyObjects.dict("filtered_stocks", ArrayVector.from(out)));
    }

    /** {@code self.stocks.get(symbol, {}).get("price", 0)}. */
    private static Object price(TradingBot t, Object symbol) {
        Object stock = PyObjects.get(t.stocks(), symbol, PyObjects.dict());
        if (!(stock instanceof Map<?, ?> m)) throw PyDyn.noAttribute(stock, "get");
        return PyObjects.get(m, "price", BigInteger.ZERO);
    }

    static Outcome addToWatchlist(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object stock = a[0];
        List<?> watch = (List<?>) t.get("watch_list");
        if (!PyObjectOps.in(stock, watch) && PyObjects.containsKey(t.stocks(), stock)) {
            t = t.with("watch_list", PyDyn.vector(watch).plus(stock));
        }
        return ok(t, g, PyObjects.dict("watchlist", t.get("watch_list")));
    }

    static Outcome notifyPriceChange(Backend self, Object[] a, Globals g) {
        TradingBot t = (TradingBot) self;
        Object threshold = a[1];
        List<String> changed = new ArrayList<>();
        for (Object symbol : PyObjectOps.iterate(a[0])) {
            if (!PyObjects.containsKey(t.stocks(), symbol)) continue;
            Object change = PyObjectOps.getItem(PyObjectOps.getItem(t.stocks(), symbol), "percent_change");
            if (PyObjectOps.ge(PyObjectOps.abs(change), threshold)) changed.add((String) symbol);
        }
        if (!changed.isEmpty()) {
            return ok(
                    t,
                    g,
                    PyObjects.dict(
                            "notification",
                            "Stocks " + String.join(", ", changed) + " have significant price changes."));
        }
        return ok(t, g, PyObjects.dict("notification", "No significant price changes in the selected stocks."));
    }

    public static final BackendClass CLASS = BackendClass.of(
            "TradingBot",
            false,
            TradingBot::load,
            List.of(
                    Method.of("get_current_time", TradingBot::getCurrentTime),
                    Method.of("get_symbol_by_name", TradingBot::getSymbolByName, required("name")),
                    Method.of("get_stock_info", TradingBot::getStockInfo, required("symbol")),
                    Method.of("get_order_details", TradingBot::getOrderDetails, required("order_id")),
                    Method.of("cancel_order", TradingBot::cancelOrder, required("order_id")),
                    Method.of(
                            "place_order",
                            TradingBot::placeOrder,
                            required("order_type"),
                            required("symbol"),
                            required("price"),
                            required("amount")),
                    Method.of("withdraw_funds", TradingBot::withdrawFunds, required("amount")),
                    Method.of("get_account_info", TradingBot::getAccountInfo),
                    Method.of("trading_login", TradingBot::tradingLogin, required("username"), required("password")),
                    Method.of("trading_get_login_status", TradingBot::tradingGetLoginStatus),
                    Method.of("trading_logout", TradingBot::tradingLogout),
                    Method.of("fund_account", TradingBot::fundAccount, required("amount")),
                    Method.of("remove_stock_from_watchlist", TradingBot::removeStockFromWatchlist, required("symbol")),
                    Method.of("get_watchlist", TradingBot::getWatchlist),
                    Method.of("get_order_history", TradingBot::getOrderHistory),
                    Method.of(
                            "get_transaction_history",
                            TradingBot::getTransactionHistory,
                            optional("start_date", PyNone.NONE),
                            optional("end_date", PyNone.NONE)),
                    Method.of("get_available_stocks", TradingBot::getAvailableStocks, required("sector")),
                    Method.of(
                            "filter_stocks_by_price",
                            TradingBot::filterStocksByPrice,
                            required("stocks"),
                            required("min_price"),
                            required("max_price")),
                    Method.of("add_to_watchlist", TradingBot::addToWatchlist, required("stock")),
                    Method.of(
                            "notify_price_change",
                            TradingBot::notifyPriceChange,
                            required("stocks"),
                            required("threshold"))));
}
