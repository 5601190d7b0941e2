/**
 * The first tab stop of every page: straight to the page's content, past the navigation.
 * The route lives in the URL's hash, so the link moves focus itself rather than jump to
 * `#content` (which would read as a page of that name).
 */
export function SkipLink({ target }: { target: string }) {
  return (
    <a
      className="skip-link"
      href={`#${target}`}
      onClick={(e) => {
        e.preventDefault();
        document.getElementById(target)?.focus();
      }}
    >
      Skip to content
    </a>
  );
}
