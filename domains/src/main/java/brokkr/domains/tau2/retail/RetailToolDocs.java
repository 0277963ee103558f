package brokkr.domains.tau2.retail;

import brokkr.domains.tau2.environment.ToolSchema;
import java.util.List;

/**
 * The docstrings of upstream's {@code RetailTools} methods (src/tau2/domains/retail/tools.py), as
 * {@code docstring_parser} splits them: short description, long description, and each argument's
 * description. {@link ToolSchema} turns them into the OpenAI tool schemas the agent sees.
 */
final class RetailToolDocs {
    private RetailToolDocs() {}

    /** In upstream order ({@code RetailTools} definition order). */
    static final List<ToolSchema.ToolDoc> DOCS = List.of(
            new ToolSchema.ToolDoc(
                    "calculate",
                    "Calculate the result of a mathematical expression.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "expression",
                            "The mathematical expression to calculate, such as '2 + 2'. The expression can contain numbers, operators (+, -, *, /), parentheses, and spaces.",
                            ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "cancel_pending_order",
                    "Cancel a pending order. If the order is already processed or delivered,",
                    "it cannot be cancelled. The agent needs to explain the cancellation detail\nand ask for explicit user confirmation (yes/no) to proceed. If the user confirms,\nthe order status will be changed to 'cancelled' and the payment will be refunded.\nThe refund will be added to the user's gift card balance immediately if the payment\nwas made using a gift card, otherwise the refund would take 5-7 business days to process.\nThe function returns the order details after the cancellation.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "order_id",
                                    "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "reason",
                                    "The reason for cancellation, which should be either 'no longer needed' or 'ordered by mistake'.",
                                    ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "exchange_delivered_order_items",
                    "Exchange items in a delivered order to new items of the same product type.",
                    "For a delivered order, return or exchange can be only done once by the agent.\nThe agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "order_id",
                                    "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "item_ids",
                                    "The item ids to be exchanged, each such as '1008292230'. There could be duplicate items in the list.",
                                    ToolSchema.arrayOf(ToolSchema.STRING)),
                            new ToolSchema.ParamDoc(
                                    "new_item_ids",
                                    "The item ids to be exchanged for, each such as '1008292230'.\nThere could be duplicate items in the list. Each new item id should match the item id\nin the same position and be of the same product.",
                                    ToolSchema.arrayOf(ToolSchema.STRING)),
                            new ToolSchema.ParamDoc(
                                    "payment_method_id",
                                    "The payment method id to pay or receive refund for the item price difference,\nsuch as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up\nfrom the user or order details.",
                                    ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "find_user_id_by_name_zip",
                    "Find user id by first name, last name, and zip code. If the user is not found, the function",
                    "will return an error message. By default, find user id by email, and only call this function\nif the user is not found by email or cannot remember email.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "first_name", "The first name of the customer, such as 'John'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "last_name", "The last name of the customer, such as 'Doe'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "zip", "The zip code of the customer, such as '12345'.", ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "find_user_id_by_email",
                    "Find user id by email. If the user is not found, the function will return an error message.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "email", "The email of the user, such as 'something@example.com'.", ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "get_order_details",
                    "Get the status and details of an order.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "order_id",
                            "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
                            ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "get_product_details",
                    "Get the inventory details of a product.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "product_id",
                            "The product id, such as '6086499569'. Be careful the product id is different from the item id.",
                            ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "get_item_details",
                    "Get the inventory details of an item.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "item_id",
                            "The item id, such as '6086499569'. Be careful the item id is different from the product id.",
                            ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "get_user_details",
                    "Get the details of a user, including their orders.",
                    null,
                    List.of(new ToolSchema.ParamDoc(
                            "user_id", "The user id, such as 'sara_doe_496'.", ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "list_all_product_types",
                    "List the name and product id of all product types.",
                    "Each product type has a variety of different items with unique item ids and options.\nThere are only 50 product types in the store.",
                    List.of()),
            new ToolSchema.ToolDoc(
                    "modify_pending_order_address",
                    "Modify the shipping address of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "order_id",
                                    "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "address1",
                                    "The first line of the address, such as '123 Main St'.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "address2",
                                    "The second line of the address, such as 'Apt 1' or ''.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc("city", "The city, such as 'San Francisco'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("state", "The state, such as 'CA'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("country", "The country, such as 'USA'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("zip", "The zip code, such as '12345'.", ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "modify_pending_order_items",
                    "Modify items in a pending order to new items of the same product type. For a pending order, this function can only be called once. The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "order_id",
                                    "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "item_ids",
                                    "The item ids to be modified, each such as '1008292230'. There could be duplicate items in the list.",
                                    ToolSchema.arrayOf(ToolSchema.STRING)),
                            new ToolSchema.ParamDoc(
                                    "new_item_ids",
                                    "The item ids to be modified for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product.",
                                    ToolSchema.arrayOf(ToolSchema.STRING)),
                            new ToolSchema.ParamDoc(
                                    "payment_method_id",
                                    "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details.",
                                    ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "modify_pending_order_payment",
                    "Modify the payment method of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "order_id",
                                    "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "payment_method_id",
                                    "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details.",
                                    ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "modify_user_address",
                    "Modify the default address of a user. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.",
                    null,
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "user_id", "The user id, such as 'sara_doe_496'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "address1",
                                    "The first line of the address, such as '123 Main St'.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "address2",
                                    "The second line of the address, such as 'Apt 1' or ''.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc("city", "The city, such as 'San Francisco'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("state", "The state, such as 'CA'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("country", "The country, such as 'USA'.", ToolSchema.STRING),
                            new ToolSchema.ParamDoc("zip", "The zip code, such as '12345'.", ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "return_delivered_order_items",
                    "Return some items of a delivered order.",
                    "The order status will be changed to 'return requested'.\nThe agent needs to explain the return detail and ask for explicit user confirmation (yes/no) to proceed.\nThe user will receive follow-up email for how and where to return the item.",
                    List.of(
                            new ToolSchema.ParamDoc(
                                    "order_id",
                                    "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id.",
                                    ToolSchema.STRING),
                            new ToolSchema.ParamDoc(
                                    "item_ids",
                                    "The item ids to be returned, each such as '1008292230'. There could be duplicate items in the list.",
                                    ToolSchema.arrayOf(ToolSchema.STRING)),
                            new ToolSchema.ParamDoc(
                                    "payment_method_id",
                                    "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'.\nThese can be looked up from the user or order details.",
                                    ToolSchema.STRING))),
            new ToolSchema.ToolDoc(
                    "transfer_to_human_agents",
                    "Transfer the user to a human agent, with a summary of the user's issue.",
                    "Only transfer if\n -  the user explicitly asks for a human agent\n -  given the policy and the available tools, you cannot solve the user's issue.",
                    List.of(new ToolSchema.ParamDoc("summary", "A summary of the user's issue.", ToolSchema.STRING))));
}
