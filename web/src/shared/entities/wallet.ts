/** A member's balance in one currency for one purpose (the profile reply lists them, the wallet feature moves them). */
export interface Wallet {
  _id?: string;
  user_id: string;
  wallet_for: string;
  wallet_currency: string;
  wallet_amount: number;
  data?: { stripe_connected_account_charge_enabled?: boolean };
}
