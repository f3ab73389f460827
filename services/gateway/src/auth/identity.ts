/** Who is calling; set by the one auth middleware, read by every route that needs it. */
export interface Identity {
  uid: string;
  anonymous: boolean;
}

declare global {
  // Express's own extension point for request properties; passport augments the same names.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // Declaration merging: passport's empty User becomes our identity.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends Identity {}
    interface Request {
      user?: User;
    }
  }
}
