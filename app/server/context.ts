import { createContext } from "react-router";

export interface Toast {
  type: "success" | "error" | "warning" | "info";
  text: string;
}

export interface CurrentCompany {
  id: number;
  name: string;
  active: boolean;
  permission: number;
  currencySymbol: string;
}

export interface CurrentUser {
  id: number;
  name: string;
  email: string;
  isAdmin: boolean;
  isSuperAdmin: boolean;
  advertisementCode: number | null;
}

/** A company of the signed-in user, for the company switcher. */
export interface SwitcherCompany {
  id: number;
  name: string;
}

/** What the dashboard's and the document lists' banners need, read with the session (docs/decisions/147). */
export interface RequestBanners {
  /** The active company's documents waiting to be sent or for Hacienda's answer (pending_documents). */
  pending: { porEnviar: number; procesando: number };
  /** When the active company's stored key expires, if one is stored. */
  keyNotAfter: Date | null;
  /** The code of the advertisement the dashboards show, if one is shown (shownAdvertisementId). */
  advertisementCode: number | null;
  /**
   * The version of the active company's dashboard figures (figures_versions; 0 before their first
   * change, or without a company): the dashboard reads its figures again only when it moved
   * (docs/decisions/202).
   */
  figuresVersion: number;
}

export interface RequestState {
  ip: string;
  /** The CSRF token forms must echo in `_csrf`. */
  csrf: string;
  toasts: Toast[];
  /** Set by the root loader when it hands the toasts to a page: only then are they cleared (docs/decisions/205). */
  toastsShown?: boolean;
  sessionId?: string;
  user?: CurrentUser;
  company?: CurrentCompany;
  /** The user's companies (the switcher), read with the session (docs/decisions/191-request-shell.md). */
  companies?: SwitcherCompany[];
  /** The session's remembered list pages (app/server/page-memory.server.ts), read with the session. */
  uiState?: string | null;
  /** Read with the session (signed in only). */
  banners?: RequestBanners;
  /** Route rule that matched (title for the page head). */
  title?: string;
}

/** Filled by the root middleware; read by loaders and actions. */
export const requestContext = createContext<RequestState>();
