/** Layout flags a route sets through its `handle`. */
export interface RouteHandle {
  /** The side menu starts closed even on wide screens (full-width pages such as the landing). */
  menuClosedByDefault?: boolean;
}
