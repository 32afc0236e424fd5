export interface paths {
    "/external/api/v1/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * 1. Update prices
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/price/w`. At most one period per payment_option. By the package and the organisation, the platform also refuses (400 invalid_parameter): a period of a campaign without monthly_payments; in an organisation with the simple price model, a period with details or without price; in one with the complex model, a period without details.
         */
        post: operations["updatePrices"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 2. Get products
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/product/r`. At most one of id or product_code.
         */
        get: operations["getProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/products/payment_periods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 3. Get payment periods
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/product/r`. Exactly one of product_id or product_code.
         */
        get: operations["getPaymentPeriods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/account_change_log/log_to_accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * 4. Log to accounts
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/account_change_log/w`. Each category_type must be one of the organisation's available categories (GET /external/api/v1/account_change_log/available_categories): one that is not refuses the whole request (400 invalid_parameter, change_logs[i].category_type), and nothing is logged.
         */
        put: operations["logToAccounts"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/account_change_log/available_categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 4. Available change-log categories
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/account_change_log/w`.
         */
        get: operations["availableChangeLogCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/subscription/transfer_subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * 5. Transfer subscription
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/subscription/w`.
         */
        put: operations["transferSubscription"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/me_retention/eligible_for_campaign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 6. Eligible for campaign
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/me/w` and `/external/me/r`. Needs a user token: one tied to a user (the ticket grant, grant_type=ticket), marked x-user-token. The parameters travel in a JSON body on this GET, as the spec says. Fetch cannot send it; node:http(s) can, framed by Content-Length or Transfer-Encoding: chunked. Exactly one of user_product_id or order_id.
         */
        get: operations["eligibleForCampaign"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/me_retention/subscribe_to_campaign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * 7. Subscribe to campaign
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/me/w` and `/external/me/r`. Needs a user token: one tied to a user (the ticket grant, grant_type=ticket), marked x-user-token. Exactly one of user_product_id or order_id.
         */
        put: operations["subscribeToCampaign"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/helpdesk_messages/get_pending_messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 8. Get pending helpdesk messages
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/helpdesk/r`.
         */
        get: operations["getPendingHelpdeskMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v2/order_validation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 9. Order validation
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/order_validation/r`. Exactly one of account_id, date_of_birth or ssn.
         */
        get: operations["orderValidation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/helpdesk_message_templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 10. Get helpdesk message template
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/helpdesk/r`. The stage spelling of the path (stage: `/external/api/v1/helpdesk_message_templates`, production: `/external/api/v1/helpdesk_messages_templates`).
         */
        get: operations["getHelpdeskMessageTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/helpdesk_messages_templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 10. Get helpdesk message template
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/helpdesk/r`. The production spelling of the path (stage: `/external/api/v1/helpdesk_message_templates`, production: `/external/api/v1/helpdesk_messages_templates`).
         */
        get: operations["getHelpdeskMessageTemplateProduction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/helpdesk_messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 11. Get helpdesk message
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/helpdesk/r`.
         */
        get: operations["getHelpdeskMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/userproducts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * 12. Update user-product
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/userproduct/w`. The API client must have a provision service defined at the operator; a client without one is refused 400 configuration_error (field unspecified_field), whatever the body. At least one of subscription_type, state, valid_from or valid_to. Given both, valid_to must be later than valid_from, compared as instants to the fraction each gives; given one, the platform compares it with the other the user-product holds (400 invalid_parameter, valid_to).
         */
        put: operations["updateUserProduct"];
        /**
         * 13. Provision user-product
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/userproduct/w`. The API client must have a provision service defined at the operator; a client without one is refused 400 configuration_error (field unspecified_field), whatever the body. valid_to must be later than valid_from, compared as instants to the fraction each gives.
         */
        post: operations["provisionUserProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/cancellation_reason": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 14. Get cancellation reason
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/cancellation_reason/r`.
         */
        get: operations["getCancellationReason"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/products/get_product_sharing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 15. Get product sharing
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/product/r`. Exactly one of id or code.
         */
        get: operations["getProductSharing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/subscription_system/reactivate_platform_provisioned_subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * 16. Reactivate platform-provisioned subscription
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/subscription_system/w`.
         */
        put: operations["reactivatePlatformProvisionedSubscription"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/order/validate_gift_receiver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * 17. Validate gift receiver
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/order/r`.
         */
        post: operations["validateGiftReceiver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/subscription_system/sync_address_from_external_subscription_system": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * 18. Sync address from external subscription system
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/subscription_system/w`. The caller's organisation must have an external subscription-system integration; without one, 400 configuration_error (field unspecified_field).
         */
        put: operations["syncAddressFromExternalSubscriptionSystem"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/subscription_system/sync_customer_subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * 19. Sync customer subscriptions
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/subscription_system/w`. The caller's organisation must have an external subscription-system integration; without one, 400 configuration_error (field unspecified_field).
         */
        put: operations["syncCustomerSubscriptions"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/subscription_system/distribution_information": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 20. Distribution information
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/subscription_system/r`. Supported only when the caller's organisation has an external subscription-system integration that supports distribution information; otherwise 400 configuration_error (field unspecified_field).
         */
        get: operations["distributionInformation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authenticatewithticket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * 21. SSO authenticatewithticket
         * @description No bearer token: the body `{ t }` is a request token (a JWT, HS256, header `typ: JWT`) signed with the client secret; the answer `{ t }` is a session token signed with the same secret, errors included. The claims of its tokens are in x-sso-claims, and in docs/sso-protocol.md. A ticket is used once: presented again, it is invalid_ticket and what its first use did is undone: the session it logged in is terminated and the ticket that answer carried in at is used up (RFC 6749, 10.5). Keep the first answer; never send a ticket twice.
         */
        post: operations["ssoAuthenticatewithticket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/authorization/ticket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * 22. Generate ticket
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/api/authorization/ticket`. Form (a) { accountId, clientId } with a server-to-server token (grant_type=none); form (b) { client_id } with a user token (grant_type=ticket), the user coming from the token; a form sent with the other kind of token is 400 invalid_parameter naming its first field.
         */
        post: operations["generateTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/authorization/access_token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * 23. Exchange ticket for access token
         * @description No bearer token: the client authenticates with client_id and client_secret in the body. The way to get an access token: grant_type=none with a space-separated scope for a server-to-server token; grant_type=ticket for a user token; grant_type=refresh_token to renew one. A ticket is used once: presented again to the ticket grant, it is refused (401 invalid_grant) and the access and refresh tokens its first exchange issued are revoked (RFC 6749, 10.5). Keep the first answer; never send a ticket twice.
         */
        post: operations["requestAccessToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/me/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 24. Get signed-in user
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken). Needs a user token: one tied to a user (the ticket grant, grant_type=ticket), marked x-user-token. The spec’s flat user; the platform’s public documentation shows `{ item }` in snake_case instead (platform-mock --me-shape documented).
         */
        get: operations["getSignedInUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/{groupId}/{marketplaceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * 25. Send a user to the shop
         * @description No token: a browser is sent here.
         */
        get: operations["openShop"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/me/cancel_product": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Cancel product (beyond the spec)
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/me/w`. Needs a user token: one tied to a user (the ticket grant, grant_type=ticket), marked x-user-token.
         */
        put: operations["cancelProduct"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v3/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get me (v3) (beyond the spec)
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/me/w`. Needs a user token: one tied to a user (the ticket grant, grant_type=ticket), marked x-user-token.
         */
        get: operations["getMeV3"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/me/active_products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get my active products (beyond the spec)
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/me/w`. Needs a user token: one tied to a user (the ticket grant, grant_type=ticket), marked x-user-token.
         */
        get: operations["getMyActiveProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/accounts/active_products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an account's active products (beyond the spec)
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/account/r`.
         */
        get: operations["getAccountActiveProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/titles/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List titles (beyond the spec)
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/title/r`.
         */
        get: operations["listTitles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/api/v1/titles/find_one": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find one title (beyond the spec)
         * @description Needs `Authorization: Bearer <access token>` from POST /api/authorization/access_token (operation requestAccessToken), with the scope `/external/title/r`.
         */
        get: operations["findOneTitle"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/identify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * SSO identify (beyond the spec)
         * @description No bearer token: the query carries a request token `t` (a JWT, HS256, header `typ: JWT`) signed with the client secret. The claims of its tokens are in x-sso-claims, and in docs/sso-protocol.md.
         */
        get: operations["ssoIdentify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/createsession": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * SSO createsession (beyond the spec)
         * @description No bearer token: the body `{ t }` is a request token (a JWT, HS256, header `typ: JWT`) signed with the client secret; the answer `{ t }` is a session token signed with the same secret, errors included. The claims of its tokens are in x-sso-claims, and in docs/sso-protocol.md.
         */
        post: operations["ssoCreatesession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessionstatus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * SSO sessionstatus (beyond the spec)
         * @description No bearer token: the body `{ t }` is a request token (a JWT, HS256, header `typ: JWT`) signed with the client secret; the answer `{ t }` is a session token signed with the same secret, errors included. The claims of its tokens are in x-sso-claims, and in docs/sso-protocol.md.
         */
        post: operations["ssoSessionstatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authenticate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * SSO authenticate (beyond the spec)
         * @description No bearer token: the body `{ t }` is a request token (a JWT, HS256, header `typ: JWT`) signed with the client secret; the answer `{ t }` is a session token signed with the same secret, errors included. The claims of its tokens are in x-sso-claims, and in docs/sso-protocol.md.
         */
        post: operations["ssoAuthenticate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * SSO logout (beyond the spec)
         * @description No bearer token: the body `{ t }` is a request token (a JWT, HS256, header `typ: JWT`) signed with the client secret; the answer `{ t }` is a session token signed with the same secret, errors included. The claims of its tokens are in x-sso-claims, and in docs/sso-protocol.md.
         */
        post: operations["ssoLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AccessTokenRequest: components["schemas"]["ClientCredentialsRequest"] | components["schemas"]["TicketGrantRequest"] | components["schemas"]["RefreshTokenGrantRequest"];
        AccessTokenResponse: {
            access_token: string;
            token_type: string;
            expires_in: number;
            refresh_token?: string;
            scope?: string;
        };
        ActiveProductsResponse: {
            item: {
                id: string;
                active_products: string[];
            };
        };
        Address: {
            first_name: string;
            last_name: string;
            street: string;
            street_number: string;
            zip_code: string;
            city: string;
            country_code: string;
        };
        AvailableCategoriesResponse: {
            items: components["schemas"]["ChangeLogCategory"][];
        };
        CancelProductRequest: {
            id: string;
            cancellation_reason_id?: string;
        };
        CancellationReason: {
            index: number;
            id: string;
            name: string;
            code: string;
            integration_code: string;
            visible_to_end_customer: boolean;
            internal: boolean;
        };
        CancellationReasonResponse: {
            item: components["schemas"]["CancellationReason"];
        };
        CancellationReasonsResponse: {
            items: components["schemas"]["CancellationReason"][];
        };
        ChangeLogCategory: {
            category_type: string;
            name: string;
        };
        ChangeLogEntry: {
            account_id: string;
            category_type: string;
            message: string;
            requested_by: string;
        };
        ChangeLogError: {
            payload: components["schemas"]["ChangeLogPayload"];
            error_message: string;
        };
        ChangeLogPayload: {
            account_id: string;
            created_at: string;
            message: string;
            cateogory: string;
            requested_by: string;
        };
        ClientCredentialsRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grant_type: "none";
            client_id: string;
            client_secret: string;
            scope?: string;
        };
        DistributionInformation: {
            distribution_days: number[];
            distribution_price: string;
            distribution_price_with_tax: string;
        };
        DistributionInformationResponse: {
            item: components["schemas"]["DistributionInformation"];
        };
        DocumentedMeV3Response: {
            item: components["schemas"]["DocumentedUserV3"];
        };
        DocumentedUserProductV3: {
            id: string;
            order_id: string | null;
            created: string;
            updated: string;
            product_code: string;
            title_code: string;
            valid_from: string;
            valid_to: string;
            provision_service: string | null;
            subscription_type: string;
            state: string;
            subscription_number: string | null;
            has_pending_change_request: boolean;
            campaign_end_date: string | null;
            subscription_end_date: string | null;
        };
        DocumentedUserV3: {
            id: string;
            email: string;
            status: string;
            verified: boolean;
            customer_number: string;
            first_name: string;
            last_name: string;
            mobile_phone_number: string;
            birth_date: string | null;
            gender: string;
            company_registration_number: string;
            alias: string;
            account_origin: string;
            address: {
                first_name: string;
                last_name: string;
                street: string;
                street_number: string;
                staircase: string;
                floor: string;
                apartment_number: string;
                zip_code: string;
                city: string;
                drop_box: string;
            };
            user_products: components["schemas"]["DocumentedUserProductV3"][];
        };
        EligibleAnswer: {
            item: components["schemas"]["RetentionCampaignItem"];
        };
        EligibleForCampaignResponse: components["schemas"]["EligibleAnswer"] | components["schemas"]["NotEligibleAnswer"];
        ErrorBody: {
            code: string;
            /** @description The offending field (`price_periods[0].length`), or `unspecified_field` when none is at fault */
            field: string;
            message: string;
            api_correlation_id?: string;
        };
        FindTitleResponse: {
            item: components["schemas"]["Title"];
        };
        GenerateTicketForAccountRequest: {
            accountId: string;
            clientId: string;
        };
        GenerateTicketForUserRequest: {
            client_id: string;
        };
        /** @description Form (a) { accountId, clientId } with a server-to-server token (grant_type=none); form (b) { client_id } with a user token (grant_type=ticket), the user coming from the token; a form sent with the other kind of token is 400 invalid_parameter naming its first field */
        GenerateTicketRequest: components["schemas"]["GenerateTicketForAccountRequest"] | components["schemas"]["GenerateTicketForUserRequest"];
        GenerateTicketResponse: {
            ticket: string;
        };
        GetCancellationReasonResponse: components["schemas"]["CancellationReasonResponse"] | components["schemas"]["CancellationReasonsResponse"];
        GetHelpdeskRecordResponse: {
            item: components["schemas"]["HelpdeskMessageDetail"];
        };
        GetPaymentPeriodsResponse: {
            items: components["schemas"]["PaymentPeriod"][];
        };
        GetPendingMessagesResponse: {
            items: components["schemas"]["HelpdeskMessage"][];
        };
        GetProductSharingResponse: {
            item: components["schemas"]["ProductSharingOption"][];
        };
        GetProductsResponse: {
            items: components["schemas"]["Product"][];
        };
        HelpdeskAccount: {
            id: string;
            first_name: string;
            last_name: string;
            contact_email: string;
            mobile_number: string;
            customer_number: string;
            status: string;
            verified: boolean;
            has_products: boolean;
        };
        HelpdeskAssignee: {
            id: string;
            first_name: string;
            last_name: string;
            contact_email: string;
            mobile_number: string;
            customer_number: string;
            status: string;
            verified: boolean;
        };
        HelpdeskComment: {
            id: string;
            author_id: string;
            message: string;
            /** Format: date-time */
            created_at: string;
        };
        HelpdeskMessage: {
            id: string;
            account_id: string;
            account: components["schemas"]["HelpdeskAccount"];
            assignee_id: string;
            assignee: components["schemas"]["HelpdeskAssignee"] | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            resolved_at: string | null;
            heading: string;
            message: string;
            type: string;
            identifier: string;
            state: string;
            comments: components["schemas"]["HelpdeskComment"][];
        };
        HelpdeskMessageDetail: {
            id: string;
            account_id: string;
            account: components["schemas"]["HelpdeskAccount"];
            assignee_id: string;
            assignee: components["schemas"]["HelpdeskAssignee"] | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            resolved_at: string | null;
            heading: string;
            message: string;
            type: string;
            identifier: string;
            state: string;
            comments: components["schemas"]["HelpdeskComment"][];
            occurrences: number;
        };
        IdResponse: {
            id: string;
        };
        ListTitlesResponse: {
            items: components["schemas"]["Title"][];
        };
        /** @description Each category_type must be one of the organisation's available categories (GET /external/api/v1/account_change_log/available_categories): one that is not refuses the whole request (400 invalid_parameter, change_logs[i].category_type), and nothing is logged */
        LogToAccountsRequest: {
            change_logs: components["schemas"]["ChangeLogEntry"][];
        };
        LogToAccountsResponse: {
            ok: string[];
            errors: components["schemas"]["ChangeLogError"][];
        };
        MemberProduct: {
            id: string;
            product_code: string;
            name: string;
            description: string;
        };
        NotEligibleAnswer: {
            code: string;
            message: string;
        };
        OrderValidationResponse: {
            item: components["schemas"]["OrderValidationResult"];
        };
        OrderValidationResult: {
            purchase_allowed: boolean;
            reason: string | null;
            message: string | null;
            fallback_package_code: string | null;
        };
        /** @enum {string} */
        PaymentOption: "psp" | "creditcard" | "directdebit" | "free" | "invoice";
        PaymentOptionDetails: {
            type: string;
            name: string;
        };
        PaymentPeriod: {
            id: string;
            payment_method: string;
            type: string;
            enabled: boolean;
            iteration_type: string;
            iteration_length: number;
            price: number;
            details?: {
                type: string;
                name: string;
            };
        };
        /** @enum {string} */
        PeriodType: "day" | "week" | "month" | "year";
        PriceDetail: {
            name: string;
            price: number;
            vat_code: number;
        };
        PriceDetailInput: {
            name: string;
            price: number;
            vat_code: number;
        };
        PricePeriod: {
            id: string;
            purchase_type: string;
            payment_option: string;
            type: string;
            length: number;
            price?: number;
            details?: components["schemas"]["PriceDetail"][];
        };
        /** @description payment_option_details is required when payment_option is psp, and refused with any other payment option. price is required unless details are given. The prices of details sum to at most 1000000000000 */
        PricePeriodInput: {
            subscription_type: components["schemas"]["SubscriptionType"];
            payment_option: components["schemas"]["PaymentOption"];
            payment_option_details?: components["schemas"]["PaymentOptionDetails"];
            type: components["schemas"]["PeriodType"];
            length: number;
            monthly_payments?: boolean;
            price?: number;
            details?: components["schemas"]["PriceDetailInput"][];
        } & (unknown | unknown);
        Product: {
            id: string;
            /** Format: date-time */
            created: string;
            /** Format: date-time */
            updated: string;
            product_code: string;
            integration_code?: string;
            /** Format: date-time */
            valid_from: string;
            /** Format: date-time */
            valid_to: string;
            is_package: boolean;
            is_campaign: boolean;
            parent_product_id: string | null;
            parent_product_code: string | null;
            title_code: string;
            name: string;
            description: string;
            vat_code?: string;
            customer_can_cancel: boolean;
            products: components["schemas"]["MemberProduct"][];
            price_periods: components["schemas"]["PricePeriod"][];
            tags: components["schemas"]["Tag"][];
        };
        ProductSharingOption: {
            shareable: boolean;
            limit: number;
            sharing_text: string | null;
            sharing_title: string | null;
            received_product_text: string | null;
            received_product_title: string | null;
        };
        /** @description valid_to must be later than valid_from, compared as instants to the fraction each gives */
        ProvisionUserProductRequest: {
            account_id: string;
            package_code: string;
            subscription_type: components["schemas"]["SubscriptionType"];
            /** Format: date-time */
            valid_from: string;
            /** Format: date-time */
            valid_to: string;
        };
        ReactivateSubscriptionRequest: {
            account_id: string;
            user_product_id: string;
        };
        RefreshTokenGrantRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grant_type: "refresh_token";
            refresh_token: string;
            client_id: string;
            client_secret: string;
        };
        RetentionCampaignItem: {
            id: string;
            code: string;
            name: string;
            description: string;
            products: string[];
        };
        /** @description Exactly one of user_product_id or order_id */
        RetentionRequest: {
            user_product_id?: string;
            order_id?: string;
        } & (unknown | unknown);
        /** @enum {string} */
        SettableUserProductState: "activated" | "deactivated";
        SignedInUser: {
            id: string;
            email: string;
            firstName: string;
            lastName: string;
            customerNumber: string;
            address: {
                street: string;
                zipCode: string;
                city: string;
                countryCode: string;
            };
        };
        SsoAuthenticateClaims: {
            cid: string;
            nbf: number;
            exp: number;
            iat: number;
            iss: string;
            aud: string;
            sid: string;
            ipa: string;
            uas: string;
            usr: string;
            pwd: string;
        };
        SsoCreateSessionClaims: {
            cid: string;
            nbf: number;
            exp: number;
            iat: number;
            iss: string;
            aud: string;
            ipa: string;
            uas: string;
            apn: string;
            apv: string;
            osn: string;
            osv: string;
        };
        SsoIdentifyClaims: {
            cid: string;
            nbf: number;
            exp: number;
            iat: number;
            iss: string;
            aud: string;
        };
        SsoLogoutClaims: {
            cid: string;
            nbf: number;
            exp: number;
            iat: number;
            iss: string;
            aud: string;
            sid: string;
            ipa: string;
            uas: string;
        };
        SsoRequestClaims: {
            cid: string;
            sid: string;
            at: string;
            ipa: string;
            uas: string;
            nbf: number;
            exp: number;
            iat: number;
            iss: string;
            aud: string;
        };
        SsoSessionClaims: {
            sts: string;
            sid: string;
            aid: string;
            at: string;
            err: string | null;
            ems: string;
            frf: number;
            raa: number;
            slm: number;
            otp: string;
            ses: unknown;
            nbf: number;
            iat: number;
            exp: number;
            iss: string;
            aud: string;
        };
        /** @enum {string} */
        SsoSessionStatus: "anon" | "loggedin" | "terminated";
        SsoSessionStatusClaims: {
            cid: string;
            nbf: number;
            exp: number;
            iat: number;
            iss: string;
            aud: string;
            sid: string;
            ipa: string;
            uas: string;
            lks: components["schemas"]["SsoSessionStatus"];
        };
        SubscribeToCampaignResponse: {
            item: components["schemas"]["RetentionCampaignItem"];
        };
        /** @enum {string} */
        SubscriptionType: "recurring" | "limited";
        SyncCustomerRequest: {
            customer_number: string;
        };
        Tag: {
            name: string;
            type: string;
        };
        TicketGrantRequest: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            grant_type: "ticket";
            ticket: string;
            client_id: string;
            client_secret: string;
            scope?: string;
        };
        Title: {
            name: string;
            code: string;
            image_url: string | null;
            merchant_image_url: string | null;
            url: string | null;
            rgb: string | null;
        };
        TransferSubscriptionRequest: {
            source_account_id: string;
            subscription_id: string;
            /** Format: idn-email */
            target_account_email: string;
        };
        /** @description At most one period per payment_option. By the package and the organisation, the platform also refuses (400 invalid_parameter): a period of a campaign without monthly_payments; in an organisation with the simple price model, a period with details or without price; in one with the complex model, a period without details */
        UpdatePricesRequest: {
            package_integration_code: string;
            price_periods: components["schemas"]["PricePeriodInput"][];
        };
        /** @description At least one of subscription_type, state, valid_from or valid_to. Given both, valid_to must be later than valid_from, compared as instants to the fraction each gives; given one, the platform compares it with the other the user-product holds (400 invalid_parameter, valid_to) */
        UpdateUserProductRequest: {
            account_id: string;
            product_id: string;
            subscription_type?: components["schemas"]["SubscriptionType"];
            state?: components["schemas"]["SettableUserProductState"];
            /** Format: date-time */
            valid_from?: string;
            /** Format: date-time */
            valid_to?: string;
        } & (unknown | unknown | unknown | unknown);
        ValidateGiftReceiverRequest: {
            giver_account_id: string;
            campaign_code: string;
            delivery_address: components["schemas"]["Address"];
        };
        ValidateGiftReceiverResponse: {
            item: {
                receiver_eligible: boolean;
            };
        };
    };
    responses: {
        /** @description A parameter was refused: invalid_parameter, unknown_parameter, json_parser_error, invalid_content_type_error, ... */
        BadRequest: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The record is not in a state that allows it, or the same work is under way (invalid_state, already_provisioned, sync_in_progress, ...) */
        Conflict: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request body is over the platform’s size limit (payload_too_large) */
        ContentTooLarge: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The token lacks a scope or a user (insufficient_scope, identity_required), or the record is not the caller’s */
        Forbidden: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                /** @description The bearer challenge (RFC 6750): `Bearer realm="platform"`, with `error="invalid_token"` and an `error_description` for a token refused (401; without them when no token was sent), or `error="insufficient_scope"` and `scope="<the scopes the operation needs, space-separated>"` for a token without them (403 insufficient_scope) */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description An unexpected failure (internal_server_error) */
        InternalServerError: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A record the request names is absent (not_found, does_not_exist, account_not_found) */
        NotFound: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The server is answering as many requests, or holding as many request bodies, as it takes at once (busy), or a shared server has no room for another namespace (namespace_limit_reached): try again after Retry-After seconds */
        ServiceUnavailable: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                /** @description How many seconds to wait before trying again */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The access token was refused (invalid_token), or the client credentials or the ticket (invalid_client, invalid_grant) */
        Unauthorized: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                /** @description The bearer challenge (RFC 6750): `Bearer realm="platform"`, with `error="invalid_token"` and an `error_description` for a token refused (401; without them when no token was sent), or `error="insufficient_scope"` and `scope="<the scopes the operation needs, space-separated>"` for a token without them (403 insufficient_scope) */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The access token was refused (invalid_token), or the client credentials or the ticket (invalid_client, invalid_grant) */
        UnauthorizedWithoutChallenge: {
            headers: {
                /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                "X-Correlation-Id"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    updatePrices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePricesRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getProducts: {
        parameters: {
            query?: {
                id?: string;
                product_code?: string;
                product_type?: "packages" | "campaigns" | "products";
                title_code?: string;
                tags?: string;
                include_inactive?: boolean | ("true" | "false");
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetProductsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPaymentPeriods: {
        parameters: {
            query?: {
                product_id?: string;
                /** @description The spec's samples send product_id as id: an alias of product_id. Exactly one of product_id, id or product_code */
                id?: string;
                product_code?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetPaymentPeriodsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    logToAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LogToAccountsRequest"];
            };
        };
        responses: {
            /** @description Success */
            207: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LogToAccountsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    availableChangeLogCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AvailableCategoriesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    transferSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransferSubscriptionRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    eligibleForCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetentionRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EligibleForCampaignResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    subscribeToCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetentionRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscribeToCampaignResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPendingHelpdeskMessages: {
        parameters: {
            query: {
                account_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetPendingMessagesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    orderValidation: {
        parameters: {
            query: {
                product_code: string;
                account_id?: string;
                date_of_birth?: string;
                ssn?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderValidationResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHelpdeskMessageTemplate: {
        parameters: {
            query: {
                id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetHelpdeskRecordResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHelpdeskMessageTemplateProduction: {
        parameters: {
            query: {
                id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetHelpdeskRecordResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHelpdeskMessage: {
        parameters: {
            query: {
                id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetHelpdeskRecordResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateUserProduct: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserProductRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    provisionUserProduct: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProvisionUserProductRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCancellationReason: {
        parameters: {
            query?: {
                id?: string;
                include_internal?: boolean | ("true" | "false");
                visible_to_end_customer?: boolean | ("true" | "false");
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetCancellationReasonResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getProductSharing: {
        parameters: {
            query?: {
                id?: string;
                code?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetProductSharingResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    reactivatePlatformProvisionedSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReactivateSubscriptionRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    validateGiftReceiver: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidateGiftReceiverRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateGiftReceiverResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    syncAddressFromExternalSubscriptionSystem: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SyncCustomerRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    syncCustomerSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SyncCustomerRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    distributionInformation: {
        parameters: {
            query: {
                product_code: string;
                period_id: string;
                zip_code: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DistributionInformationResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ssoAuthenticatewithticket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A request token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoRequestClaims (#/components/schemas/SsoRequestClaims). */
                    t: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A session token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoSessionClaims (#/components/schemas/SsoSessionClaims). */
                        t: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    generateTicket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateTicketRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerateTicketResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    requestAccessToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, or the same members form-urlencoded (application/x-www-form-urlencoded), as OAuth libraries send them. The document lists JSON alone, so that a generated client sends one encoding. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccessTokenRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccessTokenResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["UnauthorizedWithoutChallenge"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSignedInUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    openShop: {
        parameters: {
            query?: {
                /** @description The ticket (POST /api/authorization/ticket) a site sends its user with; the shop also serves the page without it. Any at (1 to 512 characters, as every ticket the SDK sends) is answered with a 303 to the same page without it, a valid one (bound to the marketplace's client) signing the user into the shop first. Without at (as after that redirect), the page is what the browser's shop session shows: the shop to a user signed in, else its login form */
                at?: string;
                returnUrl?: string;
                campaign?: string;
                period?: string;
            };
            header?: never;
            path: {
                groupId: string;
                marketplaceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page: without the ticket (`at`), what the browser’s session shows */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A redirect to the same page without the ticket (`at`), so it leaves the address bar: the answer to any `at`, a valid one signing the user into the shop first */
            303: {
                headers: {
                    /** @description Where the browser goes */
                    location?: string;
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description A record the request names is absent (not_found, does_not_exist, account_not_found) */
            404: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    cancelProduct: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CancelProductRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMeV3: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentedMeV3Response"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getMyActiveProducts: {
        parameters: {
            query?: {
                include_articles?: false | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActiveProductsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAccountActiveProducts: {
        parameters: {
            query: {
                account_id: string;
                include_articles?: false | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActiveProductsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listTitles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListTitlesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    findOneTitle: {
        parameters: {
            query: {
                title_code: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FindTitleResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ssoIdentify: {
        parameters: {
            query: {
                t: string;
                r: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A redirect */
            302: {
                headers: {
                    /** @description Where the browser goes */
                    location?: string;
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A parameter was refused: invalid_parameter, unknown_parameter, json_parser_error, invalid_content_type_error, ... */
            400: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/html": string;
                };
            };
            /** @description The record is not in a state that allows it, or the same work is under way (invalid_state, already_provisioned, sync_in_progress, ...) */
            409: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ssoCreatesession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A request token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoCreateSessionClaims (#/components/schemas/SsoCreateSessionClaims). */
                    t: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A session token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoSessionClaims (#/components/schemas/SsoSessionClaims). */
                        t: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ssoSessionstatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A request token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoSessionStatusClaims (#/components/schemas/SsoSessionStatusClaims). */
                    t: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A session token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoSessionClaims (#/components/schemas/SsoSessionClaims). */
                        t: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ssoAuthenticate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A request token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoAuthenticateClaims (#/components/schemas/SsoAuthenticateClaims). */
                    t: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A session token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoSessionClaims (#/components/schemas/SsoSessionClaims). */
                        t: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ssoLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A request token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoLogoutClaims (#/components/schemas/SsoLogoutClaims). */
                    t: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The id of this request at the platform, also the error body’s api_correlation_id: quote it in a support request */
                    "X-Correlation-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description A session token: a JWT (HS256, header typ JWT) signed with the client secret, whose claims are SsoSessionClaims (#/components/schemas/SsoSessionClaims). */
                        t: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            500: components["responses"]["InternalServerError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
