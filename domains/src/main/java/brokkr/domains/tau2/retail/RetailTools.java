package brokkr.domains.tau2.retail;

import static brokkr.python.PyException.valueError;

import brokkr.domains.tau2.environment.Calculate;
import brokkr.domains.tau2.environment.Tau2Toolkit;
import brokkr.python.PyBuiltins;
import brokkr.python.PyJson;
import brokkr.python.Pydantic;
import brokkr.tool.Args;
import brokkr.tool.ToolFunction;
import brokkr.tool.WorldCell;
import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyStr;
import brokkr.value.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The 16 agent tools of upstream's {@code RetailTools} (src/tau2/domains/retail/tools.py) over an
 * immutable {@code RetailDB} dump. Tools are called as Python bound methods with raw keyword arguments
 * (no argument validation), so every operation on an argument follows CPython's semantics for whatever
 * JSON type arrives ({@link brokkr.python.PyOps}). Each in-place mutation of the Python code is a {@link WorldCell#set}
 * at the same point, so a call that raises keeps the writes made before the raise, as upstream does.
 */
public final class RetailTools {
    private RetailTools() {}

    static final String CLS = "RetailTools";

    /** Methods decorated {@code @is_tool(ToolType.WRITE)} ({@code mutates_state=True}). */
    static final Set<String> WRITE = Set.of(
            "cancel_pending_order",
            "exchange_delivered_order_items",
            "modify_pending_order_address",
            "modify_pending_order_items",
            "modify_pending_order_payment",
            "modify_user_address",
            "return_delivered_order_items");

    /** Tools returning a pydantic model (Order, Product, Variant, User). */
    static final Set<String> MODEL_RESULTS = Set.of(
            "cancel_pending_order",
            "exchange_delivered_order_items",
            "get_order_details",
            "get_product_details",
            "get_item_details",
            "get_user_details",
            "modify_pending_order_address",
            "modify_pending_order_items",
            "modify_pending_order_payment",
            "modify_user_address",
            "return_delivered_order_items");

    public static Tau2Toolkit toolkit() {
        Map<String, ToolFunction> bodies = Map.ofEntries(
                Map.entry("calculate", RetailTools::calculate),
                Map.entry("cancel_pending_order", RetailTools::cancelPendingOrder),
                Map.entry("exchange_delivered_order_items", RetailTools::exchangeDeliveredOrderItems),
                Map.entry("find_user_id_by_name_zip", RetailTools::findUserIdByNameZip),
                Map.entry("find_user_id_by_email", RetailTools::findUserIdByEmail),
                Map.entry("get_order_details", (c, a) -> getOrder(c, a.get("order_id"))),
                Map.entry("get_product_details", (c, a) -> getProduct(c, a.get("product_id"))),
                Map.entry("get_item_details", RetailTools::getItemDetails),
                Map.entry("get_user_details", (c, a) -> getUser(c, a.get("user_id"))),
                Map.entry("list_all_product_types", RetailTools::listAllProductTypes),
                Map.entry("modify_pending_order_address", RetailTools::modifyPendingOrderAddress),
                Map.entry("modify_pending_order_items", RetailTools::modifyPendingOrderItems),
                Map.entry("modify_pending_order_payment", RetailTools::modifyPendingOrderPayment),
                Map.entry("modify_user_address", RetailTools::modifyUserAddress),
                Map.entry("return_delivered_order_items", RetailTools::returnDeliveredOrderItems),
                Map.entry("transfer_to_human_agents", (c, a) -> new PyStr("Transfer successful")));
        return Tau2Toolkit.builder(CLS, RetailToolDocs.DOCS)
                .bodies(bodies)
                .mutating(WRITE)
                .modelResults(MODEL_RESULTS)
                .generic(Set.of("calculate", "transfer_to_human_agents"))
                .build();
    }

    // ---- DB access (RetailTools._get_order / _get_user / _get_product / _get_variant / _get_payment_method)

    private static PyDict db(WorldCell c) {
        return c.get().asDict();
    }

    private static PyDict table(WorldCell c, String name) {
        return db(c).get(name).asDict();
    }

    private static void put(WorldCell c, String table, String key, PyDict value) {
        PyDict d = db(c);
        c.set(d.with(table, d.get(table).asDict().with(key, value)));
    }

    /** {@code _get_order}: {@code order_id not in self.db.orders} (unhashable ids raise TypeError). */
    static PyDict getOrder(WorldCell c, Value orderId) {
        PyDict orders = table(c, "orders");
        if (!PyBuiltins.contains(orders, orderId)) throw valueError("Order not found");
        return orders.get(orderId.asStr()).asDict();
    }

    static PyDict getUser(WorldCell c, Value userId) {
        PyDict users = table(c, "users");
        if (!PyBuiltins.contains(users, userId)) throw valueError("User not found");
        return users.get(userId.asStr()).asDict();
    }

    static PyDict getProduct(WorldCell c, Value productId) {
        PyDict products = table(c, "products");
        if (!PyBuiltins.contains(products, productId)) throw valueError("Product not found");
        return products.get(productId.asStr()).asDict();
    }

    static PyDict getVariant(WorldCell c, Value productId, Value variantId) {
        PyDict variants = getProduct(c, productId).get("variants").asDict();
        if (!PyBuiltins.contains(variants, variantId)) throw valueError("Variant not found");
        return variants.get(variantId.asStr()).asDict();
    }

    static PyDict getPaymentMethod(WorldCell c, Value userId, Value paymentMethodId) {
        PyDict methods = getUser(c, userId).get("payment_methods").asDict();
        if (!PyBuiltins.contains(methods, paymentMethodId)) throw valueError("Payment method not found");
        return methods.get(paymentMethodId.asStr()).asDict();
    }

    /** Replaces a payment method of a user (an in-place attribute write upstream). */
    private static void putPaymentMethod(WorldCell c, Value userId, Value paymentMethodId, PyDict pm) {
        PyDict user = getUser(c, userId);
        PyDict methods = user.get("payment_methods").asDict().with(paymentMethodId.asStr(), pm);
        put(c, "users", userId.asStr(), user.with("payment_methods", methods));
    }

    /** {@code isinstance(payment_method, GiftCard)}. */
    private static boolean isGiftCard(PyDict pm) {
        return pm.get("source") instanceof PyStr s && s.value().equals("gift_card");
    }

    private static double num(Value v) {
        return PyBuiltins.toDouble(v);
    }

    /** {@code OrderPayment(...)}: pydantic coerces an int amount to float (e.g. {@code abs(0)} → 0.0). */
    private static PyDict orderPayment(String type, double amount, Value paymentMethodId) {
        return RetailModel.newPayment(type, amount, paymentMethodId);
    }

    /** {@code UserAddress(address1=..., ...)}: pydantic validates every field, errors in field order. */
    private static PyDict userAddress(Args a) {
        List<Pydantic.LineError> errors = new ArrayList<>();
        PyDict.Builder b = PyDict.builder();
        for (String f : RetailModel.ADDRESS) {
            Pydantic.checkStr(f, a.get(f), errors);
            b.put(f, a.get(f));
        }
        Pydantic.raiseIfAny("UserAddress", errors);
        return b.build();
    }

    /** {@code [item.item_id for item in order.items]}. */
    private static PyList itemIds(PyDict order) {
        List<Value> ids = new ArrayList<>();
        for (Value it : order.get("items").asList()) ids.add(it.asDict().get("item_id"));
        return PyList.of(ids);
    }

    /** Index of {@code next(item for item in order.items if item.item_id == item_id)}, or -1. */
    private static int findItem(PyDict order, Value itemId) {
        PyList items = order.get("items").asList();
        for (int i = 0; i < items.size(); i++) {
            if (PyBuiltins.eq(items.get(i).asDict().get("item_id"), itemId)) return i;
        }
        return -1;
    }

    /** {@code zip(a, b)} of two iterables. */
    private static List<Value[]> zip(Value a, Value b) {
        List<Value> xs = PyBuiltins.iterate(a), ys = PyBuiltins.iterate(b);
        List<Value[]> out = new ArrayList<>();
        for (int i = 0; i < Math.min(xs.size(), ys.size()); i++) out.add(new Value[] {xs.get(i), ys.get(i)});
        return out;
    }

    /** Python's numeric {@code diff_price}: starts as int 0 and becomes a float on the first addition. */
    private static final class Diff {
        boolean isInt = true;
        double value;

        void add(double x) {
            value = isInt ? 0 + x : value + x;
            isInt = false;
        }

        Value asValue() {
            return isInt ? PyInt.of(0) : new PyFloat(value);
        }
    }

    // ---- tools

    /** {@code RetailTools.calculate} (same body as {@code GenericToolKit.calculate}). */
    static Value calculate(WorldCell c, Args a) {
        return new PyStr(Calculate.calculate(a.get("expression")));
    }

    /** {@code RetailTools.cancel_pending_order}. */
    static Value cancelPendingOrder(WorldCell c, Args a) {
        Value orderId = a.get("order_id"), reason = a.get("reason");
        PyDict order = getOrder(c, orderId);
        if (!order.get("status").equals(new PyStr("pending")))
            throw valueError("Non-pending order cannot be cancelled");
        if (!PyBuiltins.inStrSet(reason, "no longer needed", "ordered by mistake")) throw valueError("Invalid reason");
        List<Value> refunds = new ArrayList<>();
        for (Value pv : order.get("payment_history").asList()) {
            PyDict payment = pv.asDict();
            Value paymentId = payment.get("payment_method_id");
            refunds.add(orderPayment("refund", num(payment.get("amount")), paymentId));
            Value userId = getUser(c, order.get("user_id")).get("user_id");
            PyDict pm = getPaymentMethod(c, userId, paymentId);
            if (isGiftCard(pm)) { // refund to gift card immediately: balance += amount; balance = round(balance, 2)
                double balance = PyBuiltins.round(num(pm.get("balance")) + num(payment.get("amount")), 2);
                putPaymentMethod(c, userId, paymentId, pm.with("balance", new PyFloat(balance)));
            }
        }
        PyList history = order.get("payment_history").asList();
        for (Value r : refunds) history = history.plus(r);
        order = order.with("status", new PyStr("cancelled"))
                .with("cancel_reason", reason)
                .with("payment_history", history);
        put(c, "orders", orderId.asStr(), order);
        return order;
    }

    /** {@code RetailTools.exchange_delivered_order_items}. */
    static Value exchangeDeliveredOrderItems(WorldCell c, Args a) {
        Value orderId = a.get("order_id"), ids = a.get("item_ids"), newIds = a.get("new_item_ids");
        Value pmId = a.get("payment_method_id");
        PyDict order = getOrder(c, orderId);
        if (!order.get("status").equals(new PyStr("delivered")))
            throw valueError("Non-delivered order cannot be exchanged");
        PyList all = itemIds(order);
        for (Value id : PyBuiltins.iterate(ids)) {
            if (PyBuiltins.count(ids, id) > PyBuiltins.count(all, id))
                throw valueError("Number of " + PyBuiltins.str(id) + " not found.");
        }
        if (PyBuiltins.len(ids) != PyBuiltins.len(newIds))
            throw valueError("The number of items to be exchanged should match.");
        Diff diff = new Diff();
        for (Value[] pair : zip(ids, newIds)) {
            int idx = findItem(order, pair[0]);
            if (idx < 0) throw valueError("Item " + PyBuiltins.str(pair[0]) + " not found");
            PyDict item = order.get("items").asList().get(idx).asDict();
            PyDict variant = getVariant(c, item.get("product_id"), pair[1]);
            if (!PyBuiltins.truthy(variant.get("available"))) {
                throw valueError("New item " + PyBuiltins.str(pair[1]) + " not found or available");
            }
            diff.add(num(variant.get("price")) - num(item.get("price")));
        }
        Value diffPrice = PyBuiltins.round(diff.asValue(), 2); // round(0, 2) stays the int 0
        PyDict pm = getPaymentMethod(c, order.get("user_id"), pmId);
        if (isGiftCard(pm) && PyBuiltins.lt(pm.get("balance"), diffPrice)) {
            throw valueError("Insufficient gift card balance to pay for the price difference");
        }
        String oid = orderId.asStr();
        order = order.with("status", new PyStr("exchange requested"));
        put(c, "orders", oid, order);
        order = order.with("exchange_items", PyBuiltins.sorted(ids));
        put(c, "orders", oid, order);
        order = order.with("exchange_new_items", PyBuiltins.sorted(newIds))
                .with("exchange_payment_method_id", pmId)
                .with("exchange_price_difference", diffPrice);
        put(c, "orders", oid, order);
        return order;
    }

    /** {@code RetailTools.find_user_id_by_name_zip}: {@code and} short-circuits, so last_name.lower() runs only on a first-name match. */
    static Value findUserIdByNameZip(WorldCell c, Args a) {
        Value first = a.get("first_name"), last = a.get("last_name"), zip = a.get("zip");
        // The arguments' lower() is the same on every iteration: computed once, where Python first evaluates
        // it (the first user, and last_name only once a first name matched), so a non-str raises as there.
        String firstLower = null, lastLower = null;
        for (Map.Entry<String, Value> e : table(c, "users").entries()) {
            PyDict user = e.getValue().asDict();
            PyDict name = user.get("name").asDict();
            String userFirst = PyBuiltins.lower(name.get("first_name"));
            if (firstLower == null) firstLower = PyBuiltins.lower(first);
            if (!userFirst.equals(firstLower)) continue;
            String userLast = PyBuiltins.lower(name.get("last_name"));
            if (lastLower == null) lastLower = PyBuiltins.lower(last);
            if (userLast.equals(lastLower)
                    && PyBuiltins.eq(user.get("address").asDict().get("zip"), zip)) {
                return new PyStr(e.getKey());
            }
        }
        throw valueError("User not found");
    }

    /** {@code RetailTools.find_user_id_by_email}. */
    static Value findUserIdByEmail(WorldCell c, Args a) {
        Value email = a.get("email");
        String emailLower = null; // as in findUserIdByNameZip: once, where Python first evaluates it
        for (Map.Entry<String, Value> e : table(c, "users").entries()) {
            String userEmail = PyBuiltins.lower(e.getValue().asDict().get("email"));
            if (emailLower == null) emailLower = PyBuiltins.lower(email);
            if (userEmail.equals(emailLower)) return new PyStr(e.getKey());
        }
        throw valueError("User not found");
    }

    /** {@code RetailTools.get_item_details} → {@code _get_item}: the first product whose variants hold the id. */
    static Value getItemDetails(WorldCell c, Args a) {
        Value itemId = a.get("item_id");
        for (Value p : table(c, "products").asMap().values()) {
            PyDict variants = p.asDict().get("variants").asDict();
            if (PyBuiltins.contains(variants, itemId)) return variants.get(itemId.asStr());
        }
        throw valueError("Item not found");
    }

    /** {@code RetailTools.list_all_product_types}: {@code json.dumps({name: product_id}, sort_keys=True)}. */
    static Value listAllProductTypes(WorldCell c, Args a) {
        PyDict.Builder b = PyDict.builder();
        for (Value p : table(c, "products").asMap().values()) {
            PyDict product = p.asDict();
            b.put(product.get("name").asStr(), product.get("product_id"));
        }
        return new PyStr(PyJson.dumps(b.build(), PyJson.DumpOptions.SORTED));
    }

    /** {@code RetailTools.modify_pending_order_address}: {@code "pending" in order.status}. */
    static Value modifyPendingOrderAddress(WorldCell c, Args a) {
        Value orderId = a.get("order_id");
        PyDict order = getOrder(c, orderId);
        if (!order.get("status").asStr().contains("pending")) throw valueError("Non-pending order cannot be modified");
        order = order.with("address", userAddress(a));
        put(c, "orders", orderId.asStr(), order);
        return order;
    }

    /**
     * {@code RetailTools.modify_pending_order_items}. Quirk kept: the second loop assigns
     * {@code variant.price} / {@code variant.options} of the first loop's <em>last</em> variant to every
     * modified item; the payment and gift-card balance are written before that loop.
     */
    static Value modifyPendingOrderItems(WorldCell c, Args a) {
        Value orderId = a.get("order_id"), ids = a.get("item_ids"), newIds = a.get("new_item_ids");
        Value pmId = a.get("payment_method_id");
        PyDict order = getOrder(c, orderId);
        if (!order.get("status").equals(new PyStr("pending"))) throw valueError("Non-pending order cannot be modified");
        PyList all = itemIds(order);
        for (Value id : PyBuiltins.iterate(ids)) {
            if (PyBuiltins.count(ids, id) > PyBuiltins.count(all, id))
                throw valueError(PyBuiltins.str(id) + " not found");
        }
        if (PyBuiltins.len(ids) != PyBuiltins.len(newIds))
            throw valueError("The number of items to be exchanged should match");
        Diff diff = new Diff();
        PyDict variant = null;
        for (Value[] pair : zip(ids, newIds)) {
            if (PyBuiltins.eq(pair[0], pair[1]))
                throw valueError("The new item id should be different from the old item id");
            int idx = findItem(order, pair[0]);
            if (idx < 0) throw valueError("Item " + PyBuiltins.str(pair[0]) + " not found");
            PyDict item = order.get("items").asList().get(idx).asDict();
            variant = getVariant(c, item.get("product_id"), pair[1]);
            if (!PyBuiltins.truthy(variant.get("available"))) {
                throw valueError("New item " + PyBuiltins.str(pair[1]) + " not found or available");
            }
            diff.add(num(variant.get("price")) - num(item.get("price")));
        }
        Value diffPrice = diff.asValue();
        Value userId = order.get("user_id");
        PyDict pm = getPaymentMethod(c, userId, pmId);
        if (isGiftCard(pm) && PyBuiltins.lt(pm.get("balance"), diffPrice)) {
            throw valueError("Insufficient gift card balance to pay for the new item");
        }
        double d = num(diffPrice);
        String oid = orderId.asStr();
        order = order.with(
                "payment_history",
                order.get("payment_history")
                        .asList()
                        .plus(orderPayment(d > 0 ? "payment" : "refund", Math.abs(d), pmId)));
        put(c, "orders", oid, order);
        if (isGiftCard(pm)) { // balance -= diff_price; balance = round(balance, 2)
            putPaymentMethod(
                    c, userId, pmId, pm.with("balance", new PyFloat(PyBuiltins.round(num(pm.get("balance")) - d, 2))));
        }
        for (Value[] pair : zip(ids, newIds)) {
            int idx = findItem(order, pair[0]);
            if (idx < 0) throw valueError("Item " + PyBuiltins.str(pair[0]) + " not found");
            PyList items = order.get("items").asList();
            PyDict item = items.get(idx)
                    .asDict()
                    .with("item_id", pair[1])
                    .with("price", variant.get("price"))
                    .with("options", variant.get("options"));
            order = order.with("items", items.with(idx, item));
            put(c, "orders", oid, order);
        }
        order = order.with("status", new PyStr("pending (item modified)"));
        put(c, "orders", oid, order);
        return order;
    }

    /** {@code RetailTools.modify_pending_order_payment}. */
    static Value modifyPendingOrderPayment(WorldCell c, Args a) {
        Value orderId = a.get("order_id"), pmId = a.get("payment_method_id");
        PyDict order = getOrder(c, orderId);
        if (!order.get("status").asStr().contains("pending")) throw valueError("Non-pending order cannot be modified");
        Value userId = order.get("user_id");
        PyDict pm = getPaymentMethod(c, userId, pmId);
        PyList history = order.get("payment_history").asList();
        if (history.size() != 1
                || !history.get(0).asDict().get("transaction_type").equals(new PyStr("payment"))) {
            throw valueError("There should be exactly one payment for a pending order");
        }
        PyDict first = history.get(0).asDict();
        Value oldPmId = first.get("payment_method_id");
        if (PyBuiltins.eq(oldPmId, pmId))
            throw valueError("The new payment method should be different from the current one");
        Value amount = first.get("amount");
        if (isGiftCard(pm) && PyBuiltins.lt(pm.get("balance"), amount)) {
            throw valueError("Insufficient gift card balance to pay for the order");
        }
        double amt = num(amount);
        order = order.with(
                "payment_history",
                history.plus(orderPayment("payment", amt, pmId)).plus(orderPayment("refund", amt, oldPmId)));
        String oid = orderId.asStr();
        put(c, "orders", oid, order);
        if (isGiftCard(pm)) {
            putPaymentMethod(
                    c,
                    userId,
                    pmId,
                    pm.with("balance", new PyFloat(PyBuiltins.round(num(pm.get("balance")) - amt, 2))));
        }
        PyDict old = getPaymentMethod(c, userId, oldPmId);
        if (isGiftCard(old)) {
            putPaymentMethod(
                    c,
                    userId,
                    oldPmId,
                    old.with("balance", new PyFloat(PyBuiltins.round(num(old.get("balance")) + amt, 2))));
        }
        return order;
    }

    /** {@code RetailTools.modify_user_address}. */
    static Value modifyUserAddress(WorldCell c, Args a) {
        Value userId = a.get("user_id");
        PyDict user = getUser(c, userId);
        user = user.with("address", userAddress(a));
        put(c, "users", userId.asStr(), user);
        return user;
    }

    /** {@code RetailTools.return_delivered_order_items}. */
    static Value returnDeliveredOrderItems(WorldCell c, Args a) {
        Value orderId = a.get("order_id"), ids = a.get("item_ids"), pmId = a.get("payment_method_id");
        PyDict order = getOrder(c, orderId);
        if (!order.get("status").equals(new PyStr("delivered")))
            throw valueError("Non-delivered order cannot be returned");
        PyDict user = getUser(c, order.get("user_id"));
        PyDict pm = getPaymentMethod(c, user.get("user_id"), pmId);
        if (!isGiftCard(pm)) {
            PyList history = order.get("payment_history").asList();
            if (history.isEmpty()) throw new brokkr.python.PyException("IndexError", "list index out of range");
            if (!PyBuiltins.eq(pmId, history.get(0).asDict().get("payment_method_id"))) {
                throw valueError("Payment method should be the original payment method");
            }
        }
        PyList all = itemIds(order);
        for (Value id : PyBuiltins.iterate(ids)) {
            if (PyBuiltins.count(ids, id) > PyBuiltins.count(all, id)) throw valueError("Some item not found");
        }
        String oid = orderId.asStr();
        order = order.with("status", new PyStr("return requested"));
        put(c, "orders", oid, order);
        order = order.with("return_items", PyBuiltins.sorted(ids)).with("return_payment_method_id", pmId);
        put(c, "orders", oid, order);
        return order;
    }
}
