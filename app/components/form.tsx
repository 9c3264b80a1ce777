import { Form, useNavigation, useRouteLoaderData, type FetcherWithComponents, type FormProps, type ShouldRevalidateFunction } from "react-router";

/** The intent of the document form's live totals (live-totals.ts). */
export const LIVE_TOTALS_INTENT = "totals";

/**
 * Asking for the totals changes nothing: the page's data is not reloaded after it. Unless a save was
 * submitted meanwhile: the router then finishes that navigation with the data loaded after the totals
 * answer, so the new page's data must be loaded (nextUrl is the page the save leads to). Here, not in
 * live-totals.ts: the root and the layout use it too, and this module is on every page.
 */
export const liveTotalsShouldRevalidate: ShouldRevalidateFunction = ({ formData, currentUrl, nextUrl, defaultShouldRevalidate }) =>
  formData?.get("intent") === LIVE_TOTALS_INTENT && currentUrl.href === nextUrl.href ? false : defaultShouldRevalidate;

/** The CSRF field every unsafe form carries (checked by the root middleware). */
export function CsrfInput() {
  const data = useRouteLoaderData("root") as { csrf?: string } | undefined;
  return <input type="hidden" name="_csrf" value={data?.csrf ?? ""} />;
}

/**
 * A POST form that works without JavaScript and carries the CSRF token. With `fetcher` it submits
 * through that fetcher when JavaScript runs (no navigation); without JavaScript it is the same form.
 */
export function AppForm({ children, method = "post", fetcher, ...props }: FormProps & { fetcher?: FetcherWithComponents<unknown> }) {
  const FormElement = (fetcher?.Form ?? Form) as typeof Form;
  return (
    <FormElement method={method} {...props}>
      {method !== "get" && <CsrfInput />}
      {children}
    </FormElement>
  );
}

export function Field({
  label,
  name,
  error,
  children,
  className = "",
}: {
  label: string;
  name: string;
  error?: string | string[];
  children: React.ReactNode;
  className?: string;
}) {
  const message = Array.isArray(error) ? error[0] : error;
  return (
    <div className={className}>
      <label htmlFor={name}>{label}</label>
      <div className="mt-1">{children}</div>
      {message ? (
        <p className="field-error" id={`${name}-error`}>
          {message}
        </p>
      ) : null}
    </div>
  );
}

export function SubmitButton({ children, className = "btn btn-primary", ...props }: React.ButtonHTMLAttributes<HTMLButtonElement>) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <button type="submit" className={className} {...props} disabled={props.disabled || busy}>
      {children}
    </button>
  );
}

/** The form-level error message, announced to screen readers. */
export function FormAlert({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  if (!children) return null;
  return (
    <p className={`rounded-md bg-danger/10 p-3 text-sm text-danger ${className}`} role="alert">
      {children}
    </p>
  );
}
