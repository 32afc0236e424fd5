import * as z from 'zod';

/**
 * Server-to-server token request of the platform's authorization API: `grant_type=none` with the
 * client's credentials and a space-separated `scope` (not shown in the spec; see the docs'
 * assumptions). The platform accepts it as JSON or form-urlencoded.
 */
export const ClientCredentialsRequest = z.strictObject({
  grant_type: z.literal('none'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  scope: z.string().min(1).optional(),
});
/** Server-to-server token request. */
export type ClientCredentialsRequest = z.input<typeof ClientCredentialsRequest>;

/** Access token response (spec: "Access token response"). */
export const AccessTokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});
/** Access token response. */
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>;
