package brokkr.domains.tau2.retail;

import brokkr.value.PyDict;
import brokkr.value.PyFloat;
import brokkr.value.PyInt;
import brokkr.value.PyList;
import brokkr.value.PyNone;
import brokkr.value.Value;
import java.util.Map;

/**
 * {@code RetailDB.model_validate(db.json).model_dump()} (src/tau2/domains/retail/data_model.py): every
 * model's fields in declaration order (extra keys dropped), Optional fields present (None when absent),
 * {@code float} fields coerced from int, payment methods by their {@code source}
 * ({@code Union[CreditCard, GiftCard, Paypal]}).
 */
final class RetailModel {
    private RetailModel() {}

    static final String[] ADDRESS = {"address1", "address2", "city", "country", "state", "zip"};
    /** {@code Order}'s optional fields, all defaulting to None. */
    static final String[] ORDER_OPTIONAL = {
        "cancel_reason",
        "exchange_items",
        "exchange_new_items",
        "exchange_payment_method_id",
        "exchange_price_difference",
        "return_items",
        "return_payment_method_id"
    };

    static PyDict db(Value raw) {
        PyDict d = raw.asDict();
        return PyDict.builder()
                .put("products", mapValues(d.get("products"), RetailModel::product))
                .put("users", mapValues(d.get("users"), RetailModel::user))
                .put("orders", mapValues(d.get("orders"), RetailModel::order))
                .build();
    }

    private static PyDict mapValues(Value v, java.util.function.Function<Value, Value> f) {
        PyDict.Builder b = PyDict.builder();
        for (Map.Entry<String, Value> e : v.asDict().entries()) b.put(e.getKey(), f.apply(e.getValue()));
        return b.build();
    }

    private static Value req(PyDict d, String k) {
        Value v = d.get(k);
        if (v == null) throw new IllegalArgumentException("retail db: missing field " + k + " in " + d);
        return v;
    }

    private static Value flt(Value v) {
        return v instanceof PyInt i ? new PyFloat(i.value().doubleValue()) : v;
    }

    private static PyDict fields(PyDict d, String... names) {
        PyDict.Builder b = PyDict.builder();
        for (String n : names) b.put(n, req(d, n));
        return b.build();
    }

    static PyDict variant(Value v) {
        PyDict d = v.asDict();
        return PyDict.builder()
                .put("item_id", req(d, "item_id"))
                .put("options", req(d, "options"))
                .put("available", req(d, "available"))
                .put("price", flt(req(d, "price")))
                .build();
    }

    static PyDict product(Value v) {
        PyDict d = v.asDict();
        return PyDict.builder()
                .put("name", req(d, "name"))
                .put("product_id", req(d, "product_id"))
                .put("variants", mapValues(req(d, "variants"), RetailModel::variant))
                .build();
    }

    static PyDict address(Value v) {
        return fields(v.asDict(), ADDRESS);
    }

    static PyDict paymentMethod(Value v) {
        PyDict d = v.asDict();
        String source = req(d, "source").asStr();
        return switch (source) {
            case "credit_card" -> fields(d, "source", "id", "brand", "last_four");
            case "gift_card" ->
                PyDict.builder()
                        .put("source", d.get("source"))
                        .put("id", req(d, "id"))
                        .put("balance", flt(req(d, "balance")))
                        .build();
            case "paypal" -> fields(d, "source", "id");
            default -> throw new IllegalArgumentException("retail db: unknown payment source " + source);
        };
    }

    static PyDict user(Value v) {
        PyDict d = v.asDict();
        return PyDict.builder()
                .put("user_id", req(d, "user_id"))
                .put("name", fields(req(d, "name").asDict(), "first_name", "last_name"))
                .put("address", address(req(d, "address")))
                .put("email", req(d, "email"))
                .put("payment_methods", mapValues(req(d, "payment_methods"), RetailModel::paymentMethod))
                .put("orders", req(d, "orders"))
                .build();
    }

    static PyDict order(Value v) {
        PyDict d = v.asDict();
        PyDict.Builder b = PyDict.builder()
                .put("order_id", req(d, "order_id"))
                .put("user_id", req(d, "user_id"))
                .put("address", address(req(d, "address")));
        java.util.List<Value> items = new java.util.ArrayList<>();
        for (Value it : req(d, "items").asList()) {
            PyDict i = it.asDict();
            items.add(PyDict.builder()
                    .put("name", req(i, "name"))
                    .put("product_id", req(i, "product_id"))
                    .put("item_id", req(i, "item_id"))
                    .put("price", flt(req(i, "price")))
                    .put("options", req(i, "options"))
                    .build());
        }
        b.put("items", PyList.of(items));
        b.put("status", req(d, "status"));
        java.util.List<Value> fs = new java.util.ArrayList<>();
        for (Value f : req(d, "fulfillments").asList()) fs.add(fields(f.asDict(), "tracking_id", "item_ids"));
        b.put("fulfillments", PyList.of(fs));
        java.util.List<Value> ps = new java.util.ArrayList<>();
        for (Value p : req(d, "payment_history").asList()) ps.add(payment(p.asDict()));
        b.put("payment_history", PyList.of(ps));
        for (String k : ORDER_OPTIONAL) {
            Value x = d.getOrDefault(k, PyNone.NONE);
            b.put(k, k.equals("exchange_price_difference") ? flt(x) : x);
        }
        return b.build();
    }

    static PyDict payment(PyDict p) {
        return PyDict.builder()
                .put("transaction_type", req(p, "transaction_type"))
                .put("amount", flt(req(p, "amount")))
                .put("payment_method_id", req(p, "payment_method_id"))
                .build();
    }

    /** {@code OrderPayment(transaction_type=..., amount=..., payment_method_id=...)}: amount coerced to float. */
    static PyDict newPayment(String type, double amount, Value paymentMethodId) {
        return PyDict.builder()
                .put("transaction_type", type)
                .put("amount", new PyFloat(amount))
                .put("payment_method_id", paymentMethodId)
                .build();
    }
}
