import { createAdminApi, type AdminApi } from './admin';
import { createAuthApi, type AuthApi } from './auth';
import { HttpClient, type ApiClientConfig } from './http';

/** The admin app's client: sign-in (`/api/auth/...`) and the admin calls (spec 001 §7). */
export interface MateAdminApi {
  auth: AuthApi;
  admin: AdminApi;
}

export function createAdminApiClient(config: ApiClientConfig = {}): MateAdminApi {
  const http = new HttpClient(config);
  return { auth: createAuthApi(http), admin: createAdminApi(http) };
}
