import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthMessages, type AuthPrincipal } from '@mate/contracts';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { AllowUnverified, ApiErrors, CountedPerMember, CurrentUser, MessageResponseDto, Public } from '@mate/server-kit';
import { AccountsService } from './accounts.service';
import { describeDevice } from './device';
import { ForgotPasswordDto, LoginDto, RegisterDto, RequestEmailChangeDto, ResetPasswordDto, TokenDto } from './dto/auth.dto';
import { AuthResponseDto, UserResponseDto, VerifyEmailChangeResponseDto, VerifyResetTokenResponseDto } from './dto/auth-responses.dto';
import { MemberRequestLimits } from './rate-limits';

function device(req: Request) {
  const userAgent = req.headers['user-agent'];
  return { userAgent, deviceInfo: describeDevice(userAgent), ipAddress: req.ip ?? null };
}

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(private readonly accounts: AccountsService) {}

  @Public()
  @Post('register')
  @ApiCreatedResponse({ type: AuthResponseDto, description: 'Account created and signed in' })
  @ApiErrors(400, 409, 429)
  register(@Body() dto: RegisterDto, @Req() req: Request) {
    return this.accounts.register(dto, device(req));
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOkResponse({ type: AuthResponseDto })
  @ApiErrors(400, 401, 403, 429)
  login(@Body() dto: LoginDto, @Req() req: Request) {
    return this.accounts.login(dto, device(req));
  }

  @AllowUnverified()
  @Post('logout')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponseDto })
  async logout(@CurrentUser() principal: AuthPrincipal) {
    await this.accounts.logout(principal);
    return { message: AuthMessages.loggedOut };
  }

  @AllowUnverified()
  @Get('me')
  @ApiOkResponse({ type: UserResponseDto })
  me(@CurrentUser() principal: AuthPrincipal) {
    return this.accounts.me(principal);
  }

  @Public()
  @Post('forgot-password')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponseDto, description: 'The same answer whether or not the account exists' })
  @ApiErrors(400, 429)
  async forgotPassword(@Body() dto: ForgotPasswordDto, @Req() req: Request) {
    await this.accounts.forgotPassword(dto.email, req.ip ?? null);
    return { message: AuthMessages.forgotPasswordSent };
  }

  @Public()
  @Post('verify-reset-token')
  @HttpCode(200)
  @ApiOkResponse({ type: VerifyResetTokenResponseDto })
  @ApiErrors(400, 429)
  async verifyResetToken(@Body() dto: TokenDto, @Req() req: Request) {
    await this.accounts.verifyResetToken(dto.token, req.ip ?? null);
    return { valid: true };
  }

  @Public()
  @Post('reset-password')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrors(400, 429)
  async resetPassword(@Body() dto: ResetPasswordDto, @Req() req: Request) {
    await this.accounts.resetPassword(dto, req.ip ?? null);
    return { message: AuthMessages.passwordReset };
  }

  @Post('request-email-change')
  @HttpCode(200)
  @CountedPerMember(MemberRequestLimits, 'emailChange')
  @ApiOkResponse({ type: MessageResponseDto, description: 'A link was sent to the new address' })
  @ApiErrors(400, 409, 429)
  async requestEmailChange(@CurrentUser() principal: AuthPrincipal, @Body() dto: RequestEmailChangeDto) {
    await this.accounts.requestEmailChange(principal, dto);
    return { message: AuthMessages.emailChangeRequested };
  }

  @Public()
  @Post('cancel-email-change')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponseDto, description: 'The pending email change was called off' })
  @ApiErrors(400, 429)
  async cancelEmailChange(@Body() dto: TokenDto, @Req() req: Request) {
    await this.accounts.cancelEmailChange(dto.token, req.ip ?? null);
    return { message: AuthMessages.emailChangeCancelled };
  }

  @Public()
  @Post('verify-email-change')
  @HttpCode(200)
  @ApiOkResponse({ type: VerifyEmailChangeResponseDto })
  @ApiErrors(400, 409, 429)
  async verifyEmailChange(@Body() dto: TokenDto, @Req() req: Request) {
    const newEmail = await this.accounts.verifyEmailChange(dto.token, req.ip ?? null);
    return { message: AuthMessages.emailChanged, newEmail };
  }
}

@ApiTags('auth')
@Controller('api/verification')
export class VerificationController {
  constructor(private readonly accounts: AccountsService) {}

  @AllowUnverified()
  @Post('resend')
  @HttpCode(200)
  @CountedPerMember(MemberRequestLimits, 'resendVerification')
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrors(400, 429)
  async resend(@CurrentUser() principal: AuthPrincipal) {
    await this.accounts.resendVerification(principal);
    return { message: AuthMessages.verificationSent };
  }

  @Public()
  @Post('verify')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiErrors(400, 429)
  async verify(@Body() dto: TokenDto, @Req() req: Request) {
    await this.accounts.verifyEmail(dto.token, req.ip ?? null);
    return { message: AuthMessages.emailVerified };
  }
}
