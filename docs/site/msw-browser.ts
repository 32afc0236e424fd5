/**
 * The `setupServer` an example imports from `msw/node`, in the reader's page: MSW's
 * interceptor-based one (its React Native build, which imports nothing of Node) patches the page's
 * `fetch` as the Node one patches Node's, with no service worker.
 */
export { setupServer } from 'msw/native';
