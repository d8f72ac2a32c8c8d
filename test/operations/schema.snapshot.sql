ALTER SEQUENCE merchant_payout_accounts OWNED BY merchants.payout_account;

ALTER TABLE ONLY access_tokens
    ADD CONSTRAINT access_tokens_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(merchant_id) ON DELETE CASCADE;

ALTER TABLE ONLY access_tokens
    ADD CONSTRAINT access_tokens_pkey PRIMARY KEY (token_hash);

ALTER TABLE ONLY address_guard
    ADD CONSTRAINT address_guard_pkey PRIMARY KEY (id);

ALTER TABLE ONLY chain_blocks
    ADD CONSTRAINT chain_blocks_pkey1 PRIMARY KEY (network, height);

ALTER TABLE ONLY chain_cursors
    ADD CONSTRAINT chain_cursors_pkey PRIMARY KEY (network);

ALTER TABLE ONLY chain_transfers
    ADD CONSTRAINT chain_transfers_pkey PRIMARY KEY (network, tx_hash, "position");

ALTER TABLE ONLY data_key_canary
    ADD CONSTRAINT data_key_canary_pkey PRIMARY KEY (id);

ALTER TABLE ONLY gateway_processes
    ADD CONSTRAINT gateway_processes_pkey PRIMARY KEY (process_id);

ALTER TABLE ONLY idempotency_keys
    ADD CONSTRAINT idempotency_keys_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(merchant_id) ON DELETE CASCADE;

ALTER TABLE ONLY idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (merchant_id, idempotency_key);

ALTER TABLE ONLY merchant_account_keys
    ADD CONSTRAINT merchant_account_keys_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(merchant_id) ON DELETE CASCADE;

ALTER TABLE ONLY merchant_account_keys
    ADD CONSTRAINT merchant_account_keys_pkey PRIMARY KEY (family, account_key);

ALTER TABLE ONLY merchant_event_counters
    ADD CONSTRAINT merchant_event_counters_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(merchant_id) ON DELETE CASCADE;

ALTER TABLE ONLY merchant_event_counters
    ADD CONSTRAINT merchant_event_counters_pkey PRIMARY KEY (merchant_id);

ALTER TABLE ONLY merchants
    ADD CONSTRAINT merchants_client_id_key UNIQUE (client_id);

ALTER TABLE ONLY merchants
    ADD CONSTRAINT merchants_payout_account_key UNIQUE (payout_account);

ALTER TABLE ONLY merchants
    ADD CONSTRAINT merchants_pkey PRIMARY KEY (merchant_id);

ALTER TABLE ONLY merchants
    ADD CONSTRAINT merchants_svc_key_hash_key UNIQUE (svc_key_hash);

ALTER TABLE ONLY merchants ALTER COLUMN payout_account SET DEFAULT nextval('merchant_payout_accounts'::regclass);

ALTER TABLE ONLY payment_events
    ADD CONSTRAINT payment_events_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(payment_id) ON DELETE CASCADE;

ALTER TABLE ONLY payment_events
    ADD CONSTRAINT payment_events_payment_link_ref_fkey FOREIGN KEY (payment_link_ref) REFERENCES payment_links(payment_link_ref) ON DELETE CASCADE;

ALTER TABLE ONLY payment_events
    ADD CONSTRAINT payment_events_pkey PRIMARY KEY (event_id);

ALTER TABLE ONLY payment_links
    ADD CONSTRAINT payment_links_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(merchant_id) ON DELETE CASCADE;

ALTER TABLE ONLY payment_links
    ADD CONSTRAINT payment_links_pkey PRIMARY KEY (payment_link_ref);

ALTER TABLE ONLY payments
    ADD CONSTRAINT payments_address_key UNIQUE (address);

ALTER TABLE ONLY payments
    ADD CONSTRAINT payments_one_open_per_link EXCLUDE USING btree (payment_link_ref WITH =) WHERE ((status = ANY (ARRAY['awaiting_payment'::text, 'underpaid'::text]))) DEFERRABLE INITIALLY DEFERRED;

ALTER TABLE ONLY payments
    ADD CONSTRAINT payments_payment_link_ref_fkey FOREIGN KEY (payment_link_ref) REFERENCES payment_links(payment_link_ref) ON DELETE CASCADE;

ALTER TABLE ONLY payments
    ADD CONSTRAINT payments_pkey PRIMARY KEY (payment_id);

ALTER TABLE ONLY payout_nonces
    ADD CONSTRAINT payout_nonces_pkey PRIMARY KEY (network, address, nonce);

ALTER TABLE ONLY payout_nonces
    ADD CONSTRAINT payout_nonces_refund_id_fkey FOREIGN KEY (refund_id) REFERENCES refunds(refund_id) ON DELETE CASCADE;

ALTER TABLE ONLY payout_nonces
    ADD CONSTRAINT payout_nonces_refund_id_key UNIQUE (refund_id);

ALTER TABLE ONLY payout_transactions
    ADD CONSTRAINT payout_transactions_pkey PRIMARY KEY (tx_hash);

ALTER TABLE ONLY payout_transactions
    ADD CONSTRAINT payout_transactions_refund_id_fkey FOREIGN KEY (refund_id) REFERENCES refunds(refund_id) ON DELETE CASCADE;

ALTER TABLE ONLY payout_wallets
    ADD CONSTRAINT payout_wallets_pkey PRIMARY KEY (network, address);

ALTER TABLE ONLY rate_limit_windows
    ADD CONSTRAINT rate_limit_windows_pkey PRIMARY KEY (key);

ALTER TABLE ONLY refund_events
    ADD CONSTRAINT refund_events_pkey PRIMARY KEY (seq);

ALTER TABLE ONLY refund_events
    ADD CONSTRAINT refund_events_refund_id_fkey FOREIGN KEY (refund_id) REFERENCES refunds(refund_id) ON DELETE CASCADE;

ALTER TABLE ONLY refunds
    ADD CONSTRAINT refunds_claim_token_key UNIQUE (claim_token);

ALTER TABLE ONLY refunds
    ADD CONSTRAINT refunds_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(payment_id) ON DELETE CASCADE;

ALTER TABLE ONLY refunds
    ADD CONSTRAINT refunds_payment_link_ref_fkey FOREIGN KEY (payment_link_ref) REFERENCES payment_links(payment_link_ref) ON DELETE CASCADE;

ALTER TABLE ONLY refunds
    ADD CONSTRAINT refunds_pkey PRIMARY KEY (refund_id);

ALTER TABLE ONLY refunds
    ADD CONSTRAINT refunds_retry_of_fkey FOREIGN KEY (retry_of) REFERENCES refunds(refund_id);

ALTER TABLE ONLY schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (name);

ALTER TABLE ONLY sim_blocks
    ADD CONSTRAINT chain_blocks_pkey PRIMARY KEY (network, height);

ALTER TABLE ONLY sim_transactions
    ADD CONSTRAINT chain_transactions_pkey PRIMARY KEY (tx_hash);

ALTER TABLE ONLY webhook_attempts
    ADD CONSTRAINT webhook_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries(delivery_id) ON DELETE CASCADE;

ALTER TABLE ONLY webhook_attempts
    ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (attempt_id);

ALTER TABLE ONLY webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints(endpoint_id) ON DELETE CASCADE;

ALTER TABLE ONLY webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES webhook_events(event_id) ON DELETE CASCADE;

ALTER TABLE ONLY webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (delivery_id);

ALTER TABLE ONLY webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(merchant_id) ON DELETE CASCADE;

ALTER TABLE ONLY webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (endpoint_id);

ALTER TABLE ONLY webhook_events
    ADD CONSTRAINT webhook_events_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants(merchant_id) ON DELETE CASCADE;

ALTER TABLE ONLY webhook_events
    ADD CONSTRAINT webhook_events_pkey PRIMARY KEY (event_id);

ALTER TABLE chain_transfers ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME chain_transfers_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE payment_events ALTER COLUMN event_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME payment_events_event_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE payments ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME payments_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE payout_transactions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME payout_transactions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE refund_events ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME refund_events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE refunds ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME refunds_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE sim_transactions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME chain_transactions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE webhook_attempts ALTER COLUMN attempt_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME webhook_attempts_attempt_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE webhook_deliveries ALTER COLUMN delivery_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME webhook_deliveries_delivery_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE FUNCTION contact_search_text(name text, email text, phone text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((search_fold(((COALESCE(name, ''::text) || '
'::text) || COALESCE(email, ''::text))) || '
'::text) || COALESCE(search_phone(phone), ''::text));

CREATE FUNCTION link_search_text(merchant_order_id text, request jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((search_fold(merchant_order_id) || '
'::text) || contact_search_text((request #>> '{billing_details,billing_name}'::text[]), (request #>> '{billing_details,billing_email}'::text[]), (request #>> '{billing_details,billing_phone}'::text[])));

CREATE FUNCTION payment_search_text(payment_id text, address text, customer jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((search_fold(((payment_id || '
'::text) || address)) || '
'::text) || contact_search_text((customer ->> 'name'::text), (customer ->> 'email'::text), (customer ->> 'phone'::text)));

CREATE FUNCTION search_fold(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN (octet_length(value) = length(value)) THEN lower(value) ELSE lower(translate(regexp_replace(NORMALIZE(value, NFD), '[\u0300-\u036f]'::text, ''::text, 'g'::text), 'đĐ'::text, 'dD'::text)) END;

CREATE FUNCTION search_phone(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN regexp_replace(regexp_replace(value, '[^0-9]'::text, ''::text, 'g'::text), '^84(.*)$'::text, '84\1 0\1'::text);

CREATE INDEX access_tokens_expires_at ON access_tokens USING btree (expires_at);

CREATE INDEX chain_transfers_by_block ON chain_transfers USING btree (network, block_height);

CREATE INDEX chain_transfers_search ON chain_transfers USING gin (search_fold(((tx_hash || '
'::text) || from_address)) public.gin_trgm_ops);

CREATE INDEX chain_transfers_to ON chain_transfers USING btree (to_address, seq);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys USING btree (created_at);

CREATE INDEX payment_events_by_link ON payment_events USING btree (payment_link_ref, event_id);

CREATE INDEX payment_events_by_payment ON payment_events USING btree (payment_id, event_id);

CREATE INDEX payment_links_active_by_expiry ON payment_links USING btree (expires_at) WHERE (status = 'active'::text);

CREATE INDEX payment_links_by_amount ON payment_links USING btree (merchant_id, amount);

CREATE INDEX payment_links_by_merchant_created ON payment_links USING btree (merchant_id, created_at, payment_link_ref);

CREATE INDEX payment_links_by_order ON payment_links USING btree (merchant_id, merchant_order_id, payment_link_ref);

CREATE INDEX payment_links_search ON payment_links USING gin (link_search_text(merchant_order_id, request) public.gin_trgm_ops);

CREATE INDEX payments_by_link ON payments USING btree (payment_link_ref, seq);

CREATE INDEX payments_by_network_opened ON payments USING btree (network, opened_xid);

CREATE INDEX payments_open_by_quote_expiry ON payments USING btree (quote_expires_at) WHERE (status = ANY (ARRAY['awaiting_payment'::text, 'underpaid'::text]));

CREATE INDEX payments_search ON payments USING gin (payment_search_text(payment_id, address, customer) public.gin_trgm_ops);

CREATE INDEX payments_unsettled ON payments USING btree (network, payment_link_ref) WHERE unsettled;

CREATE INDEX payout_transactions_by_refund ON payout_transactions USING btree (refund_id, seq);

CREATE INDEX payout_transactions_by_signed_at ON payout_transactions USING btree (signed_at);

CREATE INDEX rate_limit_windows_ends_at ON rate_limit_windows USING btree (ends_at);

CREATE INDEX refund_events_by_refund ON refund_events USING btree (refund_id, seq);

CREATE INDEX refund_events_confirmed ON refund_events USING btree (at) WHERE (event = 'confirmed'::text);

CREATE INDEX refunds_by_payment ON refunds USING btree (payment_id);

CREATE INDEX refunds_by_payout_transaction ON refunds USING btree (psp_refund_id) WHERE (psp_refund_id IS NOT NULL);

CREATE INDEX refunds_payment_link_ref ON refunds USING btree (payment_link_ref, seq);

CREATE INDEX refunds_pending ON refunds USING btree (claim_expires_at) WHERE (refund_status = 'PENDING'::text);

CREATE INDEX refunds_search ON refunds USING gin (search_fold(((((refund_id || '
'::text) || COALESCE(psp_refund_id, ''::text)) || '
'::text) || COALESCE(destination, ''::text))) public.gin_trgm_ops);

CREATE INDEX sim_transactions_from ON sim_transactions USING btree (from_address);

CREATE INDEX sim_transactions_mempool ON sim_transactions USING btree (network) WHERE (block_height IS NULL);

CREATE INDEX sim_transactions_to ON sim_transactions USING btree (to_address, seq);

CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts USING btree (delivery_id, attempt_id);

CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries USING btree (endpoint_id, delivery_id);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries USING btree (next_attempt_at) WHERE (status = 'pending'::text);

CREATE INDEX webhook_deliveries_leased ON webhook_deliveries USING btree (locked_until) WHERE ((status = 'pending'::text) AND (locked_until IS NOT NULL));

CREATE INDEX webhook_deliveries_order ON webhook_deliveries USING btree (endpoint_id, ordering_key, delivery_id) WHERE (status = 'pending'::text);

CREATE INDEX webhook_endpoints_by_merchant ON webhook_endpoints USING btree (merchant_id) WHERE (deleted_at IS NULL);

CREATE INDEX webhook_events_by_link ON webhook_events USING btree (payment_link_ref);

CREATE SEQUENCE merchant_payout_accounts
    START WITH 0
    INCREMENT BY 1
    MINVALUE 0
    NO MAXVALUE
    CACHE 1;

CREATE SEQUENCE payment_address_index
    START WITH 0
    INCREMENT BY 1
    MINVALUE 0
    NO MAXVALUE
    CACHE 1;

CREATE TABLE access_tokens (
    token_hash text NOT NULL,
    merchant_id text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    secret_generation integer DEFAULT 1 NOT NULL
);

CREATE TABLE address_guard (
    id boolean DEFAULT true NOT NULL,
    system_identifier text NOT NULL,
    payments_oid bigint NOT NULL,
    checked_at timestamp with time zone NOT NULL,
    CONSTRAINT address_guard_id_check CHECK (id)
);

CREATE TABLE chain_blocks (
    network text NOT NULL,
    height bigint NOT NULL,
    hash text NOT NULL,
    block_time timestamp with time zone NOT NULL,
    recorded_at timestamp with time zone NOT NULL
);

CREATE TABLE chain_cursors (
    network text NOT NULL,
    height bigint NOT NULL,
    hash text NOT NULL,
    synced_at timestamp with time zone,
    stale_after_ms integer
);

CREATE TABLE chain_transfers (
    network text NOT NULL,
    tx_hash text NOT NULL,
    "position" text NOT NULL,
    asset text NOT NULL,
    from_address text NOT NULL,
    to_address text NOT NULL,
    amount_atomic numeric(78,0) NOT NULL,
    block_height bigint,
    block_hash text,
    seen_at timestamp with time zone NOT NULL,
    seq bigint NOT NULL,
    CONSTRAINT chain_transfers_amount_atomic_check CHECK ((amount_atomic > (0)::numeric))
);

CREATE TABLE data_key_canary (
    id smallint NOT NULL,
    sealed text NOT NULL,
    sealed_at timestamp with time zone NOT NULL,
    CONSTRAINT data_key_canary_id_check CHECK ((id = 1))
);

CREATE TABLE gateway_processes (
    process_id text NOT NULL,
    started_at timestamp with time zone NOT NULL,
    seen_at timestamp with time zone NOT NULL,
    current_key text NOT NULL,
    previous_keys text[] NOT NULL,
    sealing_key text NOT NULL
);

CREATE TABLE idempotency_keys (
    merchant_id text NOT NULL,
    idempotency_key text NOT NULL,
    request_hash text NOT NULL,
    response jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE merchant_account_keys (
    merchant_id text NOT NULL,
    family text NOT NULL,
    account_key text NOT NULL,
    account_xpub text NOT NULL,
    next_index bigint DEFAULT 0 NOT NULL,
    in_use boolean NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT merchant_account_keys_next_index_check CHECK (((next_index >= 0) AND (next_index <= '2147483648'::bigint)))
);

CREATE TABLE merchant_event_counters (
    merchant_id text NOT NULL,
    last bigint NOT NULL
);

CREATE TABLE merchants (
    merchant_id text NOT NULL,
    name text NOT NULL,
    client_id text NOT NULL,
    client_secret_hash text NOT NULL,
    client_secret_sealed text NOT NULL,
    svc_key_hash text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    secret_generation integer DEFAULT 1 NOT NULL,
    previous_secret_hash text,
    previous_secret_sealed text,
    previous_secret_expires_at timestamp with time zone,
    disabled_at timestamp with time zone,
    payout_account integer NOT NULL,
    CONSTRAINT merchants_payout_account_check CHECK ((payout_account >= 0))
);

CREATE TABLE payment_events (
    event_id bigint NOT NULL,
    payment_link_ref text NOT NULL,
    payment_id text NOT NULL,
    payment jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL
);

CREATE TABLE payment_links (
    payment_link_ref text NOT NULL,
    merchant_id text NOT NULL,
    merchant_order_id text NOT NULL,
    status text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    request jsonb NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    paid_at timestamp with time zone,
    superseded_at timestamp with time zone,
    cancelled_at timestamp with time zone,
    CONSTRAINT payment_links_amount_check CHECK ((amount > 0)),
    CONSTRAINT payment_links_status_check CHECK ((status = ANY (ARRAY['active'::text, 'paid'::text, 'expired'::text, 'cancelled'::text])))
);

CREATE TABLE payments (
    payment_id text NOT NULL,
    seq bigint NOT NULL,
    payment_link_ref text NOT NULL,
    status text NOT NULL,
    overpaid boolean DEFAULT false NOT NULL,
    asset text NOT NULL,
    network text NOT NULL,
    address text NOT NULL,
    address_index bigint NOT NULL,
    amount_atomic numeric(78,0) NOT NULL,
    amount_vnd bigint NOT NULL,
    rate text NOT NULL,
    quote_expires_at timestamp with time zone NOT NULL,
    confirmations_required integer NOT NULL,
    customer jsonb,
    created_at timestamp with time zone NOT NULL,
    paid_at timestamp with time zone,
    accepted_at timestamp with time zone,
    held_vnd bigint DEFAULT 0 NOT NULL,
    unsettled boolean DEFAULT true NOT NULL,
    reorged_at timestamp with time zone,
    rate_provenance jsonb,
    opened_xid xid8 DEFAULT pg_current_xact_id() NOT NULL,
    account_key text,
    CONSTRAINT payments_amount_atomic_check CHECK ((amount_atomic > (0)::numeric)),
    CONSTRAINT payments_status_check CHECK ((status = ANY (ARRAY['awaiting_payment'::text, 'confirming'::text, 'underpaid'::text, 'paid'::text, 'expired'::text, 'paid_late'::text])))
);

CREATE TABLE payout_nonces (
    network text NOT NULL,
    address text NOT NULL,
    nonce bigint NOT NULL,
    refund_id text NOT NULL
);

CREATE TABLE payout_transactions (
    tx_hash text NOT NULL,
    seq bigint NOT NULL,
    refund_id text NOT NULL,
    raw text NOT NULL,
    gas numeric(78,0),
    max_fee_per_gas numeric(78,0),
    max_priority_fee_per_gas numeric(78,0),
    signed_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone,
    fee_limit numeric(78,0),
    CONSTRAINT payout_transactions_terms CHECK ((((gas IS NOT NULL) AND (max_fee_per_gas IS NOT NULL) AND (max_priority_fee_per_gas IS NOT NULL) AND (expires_at IS NULL) AND (fee_limit IS NULL)) OR ((gas IS NULL) AND (max_fee_per_gas IS NULL) AND (max_priority_fee_per_gas IS NULL) AND (expires_at IS NOT NULL) AND (fee_limit IS NOT NULL))))
);

CREATE TABLE payout_wallets (
    network text NOT NULL,
    address text NOT NULL,
    next_nonce bigint NOT NULL
);

CREATE TABLE rate_limit_windows (
    key text NOT NULL,
    ends_at timestamp with time zone NOT NULL,
    hits integer NOT NULL
);

CREATE TABLE refund_events (
    seq bigint NOT NULL,
    refund_id text NOT NULL,
    event text NOT NULL,
    at timestamp with time zone NOT NULL,
    detail text,
    CONSTRAINT refund_events_event_check CHECK ((event = ANY (ARRAY['requested'::text, 'claimed'::text, 'sent'::text, 'confirmed'::text, 'failed'::text])))
);

CREATE TABLE refunds (
    refund_id text NOT NULL,
    seq bigint NOT NULL,
    payment_link_ref text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    channel text NOT NULL,
    refund_status text NOT NULL,
    refund_type text NOT NULL,
    refund_reason text NOT NULL,
    description text NOT NULL,
    psp_refund_id text,
    created_at timestamp with time zone NOT NULL,
    payment_id text,
    amount_atomic numeric(78,0),
    basis_atomic numeric(78,0),
    basis_vnd bigint,
    send_to text NOT NULL,
    claim_token text,
    claim_expires_at timestamp with time zone,
    destination text,
    failure_reason text,
    retry_of text,
    payout_waiting text,
    payout_waiting_detail text,
    payout_waiting_until timestamp with time zone,
    CONSTRAINT refunds_amount_check CHECK ((amount > 0)),
    CONSTRAINT refunds_payout_waiting_check CHECK ((payout_waiting = ANY (ARRAY['daily_cap'::text, 'wallet_funds'::text]))),
    CONSTRAINT refunds_refund_status_check CHECK ((refund_status = ANY (ARRAY['PENDING'::text, 'SUCCESS'::text, 'FAILED'::text]))),
    CONSTRAINT refunds_refund_type_check CHECK ((refund_type = ANY (ARRAY['partial'::text, 'full'::text]))),
    CONSTRAINT refunds_send_to_check CHECK ((send_to = ANY (ARRAY['claim'::text, 'payer'::text])))
);

CREATE TABLE schema_migrations (
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE sim_blocks (
    network text NOT NULL,
    height bigint NOT NULL,
    mined_at timestamp with time zone NOT NULL,
    hash text NOT NULL
);

CREATE TABLE sim_transactions (
    tx_hash text NOT NULL,
    network text NOT NULL,
    asset text NOT NULL,
    from_address text NOT NULL,
    to_address text NOT NULL,
    amount_atomic numeric(78,0) NOT NULL,
    block_height bigint,
    seq bigint NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT chain_transactions_amount_atomic_check CHECK ((amount_atomic > (0)::numeric))
);

CREATE TABLE webhook_attempts (
    attempt_id bigint NOT NULL,
    delivery_id bigint NOT NULL,
    attempted_at timestamp with time zone NOT NULL,
    duration_ms integer NOT NULL,
    status_code integer,
    response_body text,
    response_truncated boolean DEFAULT false NOT NULL,
    error text,
    CONSTRAINT webhook_attempts_error_check CHECK ((error = ANY (ARRAY['timeout'::text, 'unresolved'::text, 'refused_address'::text, 'connection_failed'::text, 'tls'::text])))
);

CREATE TABLE webhook_deliveries (
    delivery_id bigint NOT NULL,
    event_id text NOT NULL,
    endpoint_id text NOT NULL,
    ordering_key text NOT NULL,
    status text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone,
    locked_until timestamp with time zone,
    last_status_code integer,
    last_error text,
    delivered_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text])))
);

CREATE TABLE webhook_endpoints (
    endpoint_id text NOT NULL,
    merchant_id text NOT NULL,
    url text NOT NULL,
    secret_sealed text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    deleted_at timestamp with time zone,
    refused_rule text,
    refused_reason text,
    refused_at timestamp with time zone
);

CREATE TABLE webhook_events (
    event_id text NOT NULL,
    merchant_id text NOT NULL,
    type text NOT NULL,
    payment_link_ref text,
    body text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    sequence bigint
);

CREATE UNIQUE INDEX merchant_account_keys_in_use ON merchant_account_keys USING btree (merchant_id, family) WHERE in_use;

CREATE UNIQUE INDEX payment_links_one_live_per_order ON payment_links USING btree (merchant_id, merchant_order_id) WHERE (status = ANY (ARRAY['active'::text, 'paid'::text]));

CREATE UNIQUE INDEX payments_address_index_global ON payments USING btree (address_index) WHERE (account_key IS NULL);

CREATE UNIQUE INDEX payments_address_index_per_account ON payments USING btree (account_key, address_index) WHERE (account_key IS NOT NULL);

CREATE UNIQUE INDEX webhook_events_by_sequence ON webhook_events USING btree (merchant_id, sequence) WHERE (sequence IS NOT NULL);
