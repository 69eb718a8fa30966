import { api } from '../../shared/api';
import type { LoginIdentity } from '../../shared/contact';
import type { User } from '../../shared/entities/user';

export type LoginField = 'email_id_or_phone_number' | 'name' | 'otp';

export interface LoginCodeInfo {
  /** Masked address the code went to. */
  sent_to: string;
  otp_length: number;
  /** Seconds. */
  otp_expires_in: number;
}

export type LoginReply =
  | { require: LoginField[]; data?: LoginCodeInfo }
  | { user: User; allspark_auth_key: string };

export type LoginRequest = LoginIdentity & { name?: string; otp?: string };

export function postLogin(body: LoginRequest): Promise<LoginReply> {
  return api.post<LoginReply>('/api/user/login', body);
}
