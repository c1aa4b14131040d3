// The gRPC face of the auth service (rotunda.auth.v1.AuthService): translates messages to the rules' calls.
import { Metadata } from '@grpc/grpc-js';
import type {
  Agency as AgencyMessage,
  AuthServiceServer,
  AuthUser as AuthUserMessage,
  LoginRequest,
  LoginResponse,
  TokenSet as TokenSetMessage,
} from '@rotunda/protos/auth';
import {
  ACCESS_MESSAGES,
  type Caller,
  type Logger,
  permissionDenied,
  requireService,
  unary,
} from '@rotunda/service-kit';
import type { AccessAdmin } from '../domain/access-admin.ts';
import type { Agencies, AgencyView } from '../domain/agencies.ts';
import { AccountSlowedDown, type AuthService, type AuthUser } from '../domain/auth-service.ts';
import type { IdentityProvider, TokenSet } from '../domain/ports.ts';

const tokenSet = (tokens: TokenSet): TokenSetMessage => ({
  access_token: tokens.accessToken,
  expires_in: tokens.expiresIn,
  refresh_token: tokens.refreshToken,
  refresh_expires_in: tokens.refreshExpiresIn,
  token_type: tokens.tokenType,
  session_state: tokens.sessionState,
  scope: tokens.scope,
});

const authUser = (user: AuthUser): AuthUserMessage => ({
  user_id: user.userId,
  first_name: user.firstName,
  last_name: user.lastName,
  email: user.email,
  contributor: user.contributor,
  admin: user.admin,
  email_confirmed: user.emailConfirmed,
});

const agencyMessage = (agency: AgencyView): AgencyMessage => ({
  alias: agency.alias,
  name: agency.name,
  protocol: agency.protocol,
  domains: agency.domains,
  metadata_url: agency.metadataUrl,
  client_id: agency.clientId,
  redirect_uri: agency.redirectUri,
  logout_url: agency.logoutUrl,
  sp_metadata_url: agency.spMetadataUrl,
  created_at: agency.createdAt,
});

/**
 * The trailer of a Login refused with RESOURCE_EXHAUSTED because the account is slowed down: the right password
 * with a solved captcha (captcha_payload) would pass, so the form shows the captcha.
 */
export const CAPTCHA_REQUIRED_TRAILER = 'captcha-required';

/**
 * Only another Rotunda service may ask: a member (who is known, but not allowed) is refused PERMISSION_DENIED, a
 * call naming no one UNAUTHENTICATED.
 */
function requireServiceNotMember(service: string | undefined, caller: Caller | undefined): void {
  if (!service && caller) throw permissionDenied(ACCESS_MESSAGES.servicesOnly);
  requireService(service);
}

export function grpcAuthService(
  auth: AuthService,
  identity: IdentityProvider,
  access: AccessAdmin,
  agencies: Agencies,
  logger: Logger,
): AuthServiceServer {
  const login = async (request: LoginRequest): Promise<LoginResponse> => {
    const { user, tokens } = await auth.login({
      email: request.email,
      password: request.password,
      clientIp: request.client_ip,
      captchaPayload: request.captcha_payload,
    });
    return { user: authUser(user), tokens: tokenSet(tokens) };
  };

  return {
    createCaptchaChallenge: unary(logger, 'CreateCaptchaChallenge', async () => ({
      challenge_json: JSON.stringify(await auth.createCaptchaChallenge()),
    })),
    verifyCaptcha: unary(logger, 'VerifyCaptcha', async (request) => ({
      success: await auth.verifyCaptcha(request.payload),
    })),
    checkEmail: unary(logger, 'CheckEmail', async (request) => ({
      eligible: await auth.checkEmail({ email: request.email, clientIp: request.client_ip }),
    })),
    register: unary(logger, 'Register', async (request) => ({
      message: await auth.register({
        firstName: request.first_name,
        lastName: request.last_name,
        email: request.email,
        password: request.password,
        captchaPayload: request.captcha_payload,
        appUrl: request.app_url,
        clientIp: request.client_ip,
      }),
    })),
    confirmRegistration: unary(logger, 'ConfirmRegistration', async (request) => ({
      message: await auth.confirmRegistration(request.token),
    })),
    // unary() answers a refusal with its status and message only; the captcha hint rides in a trailer.
    login: (call, callback) => {
      let slowedDown = false;
      const answer = unary(logger, 'Login', async (request: typeof call.request) => {
        try {
          return await login(request);
        } catch (error) {
          slowedDown = error instanceof AccountSlowedDown;
          throw error;
        }
      });
      answer(call, (error, value) => {
        if (error && slowedDown) {
          const trailer = new Metadata();
          trailer.set(CAPTCHA_REQUIRED_TRAILER, 'true');
          callback({ ...error, metadata: trailer }, value);
          return;
        }
        callback(error, value);
      });
    },
    refreshTokens: unary(logger, 'RefreshTokens', async (request) =>
      tokenSet(await auth.refresh(request.refresh_token, request.client_ip)),
    ),
    logout: unary(logger, 'Logout', async (request) => {
      await auth.logout(request.refresh_token);
      return {};
    }),
    listEndedSessions: unary(logger, 'ListEndedSessions', async (request) => {
      const page = await auth.listEndedSessions(request.cursor, request.limit);
      return {
        session_ids: page.sessionIds,
        cursor: page.cursor,
        retain_seconds: page.retainSeconds,
        more: page.more,
      };
    }),
    requestPasswordReset: unary(logger, 'RequestPasswordReset', async (request) => ({
      message: await auth.requestPasswordReset({
        email: request.email,
        captchaPayload: request.captcha_payload,
        appUrl: request.app_url,
        clientIp: request.client_ip,
      }),
    })),
    resetPassword: unary(logger, 'ResetPassword', async (request) => ({
      message: await auth.resetPassword(request.token, request.password),
    })),
    updatePassword: unary(logger, 'UpdatePassword', async (request, context) => ({
      message: await auth.updatePassword(context.caller, {
        currentPassword: request.current_password,
        newPassword: request.new_password,
        sessionId: request.session_id,
        clientIp: request.client_ip,
      }),
    })),
    getJwks: unary(logger, 'GetJwks', async () => ({ jwks_json: JSON.stringify(await identity.jwks()) })),
    listEmailDomains: unary(logger, 'ListEmailDomains', async () => ({
      domains: await auth.listEmailDomains(),
    })),
    listBetaEmails: unary(logger, 'ListBetaEmails', async (_request, context) => ({
      emails: await auth.listBetaEmails(context.caller),
    })),
    listApprovedEmails: unary(logger, 'ListApprovedEmails', async (_request, context) => ({
      emails: await auth.listApprovedEmails(context.caller),
    })),
    // Accounts by email answer only another Rotunda service (the demo seed), never a member or a bare port.
    findUserIdsByEmail: unary(logger, 'FindUserIdsByEmail', async (request, context) => {
      requireService(context.service);
      return {
        users: (await auth.findUserIdsByEmail(request.emails)).map((user) => ({
          email: user.email,
          user_id: user.userId,
        })),
      };
    }),
    exportMine: unary(logger, 'ExportMine', async (_request, context) => ({
      json: JSON.stringify(await auth.exportMine(context.caller)),
    })),
    deleteAccount: unary(logger, 'DeleteAccount', async (request, context) => {
      await auth.deleteAccount(context.caller, { password: request.password, clientIp: request.client_ip });
      return {};
    }),
    // Members' addresses answer only another Rotunda service (the notification service's mail).
    getMemberEmails: unary(logger, 'GetMemberEmails', async (request, context) => {
      requireServiceNotMember(context.service, context.caller);
      return {
        members: (await auth.getMemberEmails(request.user_ids)).map((member) => ({
          user_id: member.userId,
          email: member.email,
        })),
      };
    }),
    consumeQuota: unary(logger, 'ConsumeQuota', async (request, context) => ({
      retry_after_seconds: await auth.consumeQuota(context.caller, request.quota),
    })),
    getAccessLists: unary(logger, 'GetAccessLists', async (_request, context) =>
      access.getAccessLists(context.caller),
    ),
    changeAccessList: unary(logger, 'ChangeAccessList', async (request, context) =>
      access.changeAccessList(context.caller, request),
    ),
    setRole: unary(logger, 'SetRole', async (request, context) => {
      await access.setRoleFor(context.caller, request);
      return {};
    }),
    listAdminLog: unary(logger, 'ListAdminLog', async (request, context) => ({
      entries: (await access.listAdminLog(context.caller, request)).map((entry) => ({
        id: entry.id,
        at: entry.at,
        actor_user_id: entry.actor.userId ?? '',
        actor_email: entry.actor.email,
        action: entry.action,
        subject: entry.subject,
        value: entry.value,
      })),
    })),
    findAgency: unary(logger, 'FindAgency', async (request) => {
      return { agency: (await agencies.findAgency(request.email)) ?? undefined };
    }),
    startAgencySignIn: unary(logger, 'StartAgencySignIn', async (request) => ({
      url: await agencies.startSignIn({
        email: request.email,
        appUrl: request.app_url,
        clientIp: request.client_ip,
      }),
    })),
    completeAgencySignIn: unary(logger, 'CompleteAgencySignIn', async (request) => {
      const { user, tokens, firstSignIn } = await agencies.completeSignIn({
        code: request.code,
        state: request.state,
        appUrl: request.app_url,
      });
      return { user: authUser(user), tokens: tokenSet(tokens), first_sign_in: firstSignIn };
    }),
    backchannelLogout: unary(logger, 'BackchannelLogout', async (request) => {
      await agencies.backchannelLogout(request.logout_token);
      return {};
    }),
    listAgencies: unary(logger, 'ListAgencies', async (_request, context) => {
      const { available, agencies: list } = await agencies.listAgencies(context.caller);
      return { available, agencies: list.map(agencyMessage) };
    }),
    addAgency: unary(logger, 'AddAgency', async (request, context) =>
      agencyMessage(
        await agencies.addAgency(context.caller, {
          name: request.name,
          protocol: request.protocol,
          domains: request.domains,
          metadataUrl: request.metadata_url,
          clientId: request.client_id,
          clientSecret: request.client_secret,
        }),
      ),
    ),
    removeAgency: unary(logger, 'RemoveAgency', async (request, context) => {
      await agencies.removeAgency(context.caller, request.alias);
      return {};
    }),
  };
}
