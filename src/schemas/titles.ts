/** The organisation's titles (publications), as the platform's public documentation shows the titles API (beyond the spec). */
import * as z from 'zod';

/** A title (a publication) of the organisation. */
export const Title = z.object({
  name: z.string(),
  code: z.string(),
  image_url: z.string().nullable(),
  merchant_image_url: z.string().nullable(),
  url: z.string().nullable(),
  rgb: z.string().nullable(),
});
/** A title of the organisation. */
export type Title = z.infer<typeof Title>;
/** Query of `GET /external/api/v1/titles/`: none. */
export const ListTitlesQuery = z.strictObject({});
/** Query of `GET /external/api/v1/titles/`: none. */
export type ListTitlesQuery = z.input<typeof ListTitlesQuery>;
/** `{ items }`: the organisation's titles. */
export const ListTitlesResponse = z.object({ items: z.array(Title) });
/** The organisation's titles. */
export type ListTitlesResponse = z.infer<typeof ListTitlesResponse>;
/** Query of `GET /external/api/v1/titles/find_one`. */
export const FindTitleQuery = z.strictObject({ title_code: z.string().min(1).max(1024) });
/** Query of `GET /external/api/v1/titles/find_one`. */
export type FindTitleQuery = z.input<typeof FindTitleQuery>;
/** `{ item }`: one title. */
export const FindTitleResponse = z.object({ item: Title });
/** One title. */
export type FindTitleResponse = z.infer<typeof FindTitleResponse>;
