//! The word lists names, fields and prose are composed from.

#[rustfmt::skip]
pub const DOMAINS: &[&str] = &[
    "Orders", "Payments", "Inventory", "Shipping", "Billing", "Customers", "Catalog", "Pricing",
    "Identity", "Notifications", "Fulfilment", "Returns", "Loyalty", "Reviews", "Search",
    "Analytics", "Marketing", "Subscriptions", "Accounts", "Warehouse", "Logistics", "Support",
    "Compliance", "Fraud", "Checkout", "Promotions", "Procurement", "Suppliers", "Reporting",
    "Ledger",
];
#[rustfmt::skip]
pub const ENTITIES: &[&str] = &[
    "Order", "Payment", "Invoice", "Shipment", "Parcel", "Refund", "Customer", "Account", "Cart",
    "Product", "Price", "Discount", "Coupon", "Stock", "Reservation", "Delivery", "Return",
    "Review", "Rating", "Subscription", "Plan", "Ticket", "Profile", "Address", "Session",
    "Report", "Batch", "Supplier", "Contract", "Quote", "Wallet", "Transfer", "Statement",
    "Campaign", "Booking", "Slot", "Route", "Voucher", "Claim", "Dispute",
];
#[rustfmt::skip]
pub const PAST_VERBS: &[&str] = &[
    "Created", "Updated", "Cancelled", "Placed", "Confirmed", "Rejected", "Approved", "Shipped",
    "Delivered", "Expired", "Archived", "Restored", "Renewed", "Suspended", "Completed",
    "Failed", "Scheduled", "Assigned", "Released", "Reserved",
];
#[rustfmt::skip]
pub const VERBS: &[&str] = &[
    "Create", "Update", "Cancel", "Place", "Confirm", "Reject", "Approve", "Ship", "Archive",
    "Restore", "Renew", "Suspend", "Schedule", "Assign", "Release", "Reserve", "Close", "Reopen",
];
pub const QUERY_SHAPES: &[(&str, &str)] = &[
    ("Get", "Details"),
    ("Get", "Status"),
    ("Find", "ById"),
    ("List", "s"),
    ("Search", "s"),
    ("Get", "History"),
];
#[rustfmt::skip]
pub const ROLES: &[&str] = &[
    "Api", "Worker", "Gateway", "Processor", "Manager", "Projector", "Scheduler", "Router",
    "Store", "Sync", "Adapter", "Engine",
];
#[rustfmt::skip]
pub const FIELD_WORDS: &[&str] = &[
    "order", "customer", "payment", "shipping", "billing", "item", "product", "tax", "discount",
    "coupon", "warehouse", "delivery", "tracking", "invoice", "account", "merchant", "store",
    "region", "channel", "source", "batch", "carrier", "refund", "loyalty", "session", "device",
    "campaign", "partner", "contract", "supplier", "promo", "basket", "stock", "pickup", "fee",
    "plan", "return", "label", "slot", "route",
];
#[rustfmt::skip]
pub const ENUM_VALUES: &[&str] = &[
    "pending", "active", "cancelled", "completed", "failed", "expired", "queued", "processing",
    "on_hold", "archived", "draft", "approved", "rejected", "refunded", "shipped", "delivered",
    "returned", "partial", "scheduled", "unknown",
];
#[rustfmt::skip]
pub const FIRST_NAMES: &[&str] = &[
    "Ada", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas",
    "Kemi", "Lars", "Maya", "Nico", "Olga", "Priya", "Quentin", "Rosa", "Sven", "Tara",
];
#[rustfmt::skip]
pub const LAST_NAMES: &[&str] = &[
    "Alvarez", "Bauer", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ivanova",
    "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Rossi",
    "Schmidt", "Tanaka", "Varga",
];
#[rustfmt::skip]
pub const TEAM_SUFFIXES: &[&str] = &["Platform", "Core", "Experience", "Integrations", "Data"];
#[rustfmt::skip]
pub const ADJECTIVES: &[&str] = &[
    "reliably", "asynchronously", "once per change", "in near real time", "in batches",
    "idempotently", "at least once", "in order per key",
];
#[rustfmt::skip]
pub const CONCERNS: &[&str] = &[
    "auditing", "reconciliation", "customer notifications", "reporting", "fraud checks",
    "search indexing", "billing runs", "capacity planning", "support tooling", "forecasting",
];
