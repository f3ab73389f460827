/** The id of the element the server writes a page's data into, as JSON, for the browser to hydrate. */
export const PAGE_DATA_ID = 'page-data';

/** The data the server wrote into its page for the browser to hydrate from (see entry-server.tsx). */
export function readPageData<T>(): T {
  return JSON.parse(document.getElementById(PAGE_DATA_ID)!.textContent) as T;
}
