import { type ComponentType, createContext, type ReactNode, useContext } from 'react';

/** The element that holds a server-rendered page's content when only its islands hydrate. */
export const STATIC_CONTENT_ID = 'static-content';

/** Set while the server renders content whose browser hydrates only its islands. */
const IslandsMarked = createContext(false);

/**
 * A page's content that the browser leaves as the server rendered it, except for its islands
 * (`Island`), each hydrated on its own: the QR landing's text, pictures and links need no
 * JavaScript, and a phone then runs the components of its interactive parts alone. The server
 * gives the content as children; the browser gives the HTML it found, so React neither compares
 * nor replaces what lies inside. `display: contents` keeps the wrapper out of the layout.
 */
export function StaticContent(props: { children: ReactNode } | { html: string }) {
  if ('html' in props) {
    return (
      <div id={STATIC_CONTENT_ID} style={{ display: 'contents' }} dangerouslySetInnerHTML={{ __html: props.html }} />
    );
  }
  return (
    <IslandsMarked value={true}>
      <div id={STATIC_CONTENT_ID} style={{ display: 'contents' }}>
        {props.children}
      </div>
    </IslandsMarked>
  );
}

/**
 * What only a page whose content stays static holds, for a script of its own to use (a template
 * it copies from); nothing in the app's render of the same component.
 */
export function InStaticContent({ children }: { children: ReactNode }) {
  return useContext(IslandsMarked) ? children : null;
}

/**
 * A part of a page that needs JavaScript. In the app, and on a page hydrated whole, it is only
 * its component. Inside `StaticContent` on the server, it is wrapped in an element that names it
 * and holds its props as JSON, from which the browser hydrates it as a root of its own
 * (`hydrateIslands` in hydrate-page.tsx), so its props must be plain data.
 */
export function Island<Props extends object>({
  name,
  component: Component,
  props,
}: {
  name: string;
  component: ComponentType<Props>;
  props: Props;
}) {
  const content = <Component {...props} />;
  if (!useContext(IslandsMarked)) return content;
  return (
    <div data-island={name} data-props={JSON.stringify(props)} style={{ display: 'contents' }}>
      {content}
    </div>
  );
}
