/** The organisation's titles (the titles API, beyond the spec): the list, and one by its code. */
import { findTitle, listTitles } from '../../src/endpoints.js';
import type { Title } from '../../src/schemas/titles.js';
import type { TitleRecord } from '../core/document.js';
import { notFound } from '../core/errors.js';
import { apiRoute } from '../core/route.js';

/** A title as the titles API answers it. */
function titleOf(t: TitleRecord): Title {
  return {
    name: t.name,
    code: t.code,
    image_url: t.image_url,
    merchant_image_url: t.merchant_image_url,
    url: t.url,
    rgb: t.rgb,
  };
}

/** `GET /external/api/v1/titles/` (beyond the spec): the organisation's titles, by code. */
export const titles = apiRoute(listTitles, ({ auth, state }) => ({
  body: {
    items: state.titles
      .list('organisation', auth.client.organisation_id)
      .map(titleOf)
      .sort((x, y) => x.code.localeCompare(y.code)),
  },
}));

/** `GET /external/api/v1/titles/find_one?title_code=` (beyond the spec): one title of the organisation. */
export const title = apiRoute(findTitle, ({ auth, state, input }) => {
  const t = state.titles.find('code', auth.client.organisation_id, input.title_code);
  if (!t) throw notFound('title_code', 'Title not found');
  return { body: { item: titleOf(t) } };
});
