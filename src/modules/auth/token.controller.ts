import { Body, Controller, Header, HttpCode, Post, Req, UseFilters, UseGuards, UsePipes, ValidationPipe } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { ValidationError } from '../../common/errors/app-error.js';
import { toErrorDetails } from '../../common/validation/validation-pipe.js';
import { AuthService, TokenGrantError } from './auth.service.js';
import { Public } from './decorators/auth.decorator.js';
import { isGrantType, TokenRequestDto } from './dto/token-request.dto.js';
import { OAuthErrorDto, TokenResponseDto } from './dto/token-response.dto.js';
import { OAuthErrorFilter } from './oauth-error.filter.js';

@ApiTags('Authentication')
@Controller('management/v1/auth')
export class TokenController {
  constructor(private readonly auth: AuthService) {}

  @Post('token')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @Public()
  @UseGuards(RateLimitGuard)
  @UseFilters(OAuthErrorFilter)
  // OAuth clients may send fields we do not use (client_id, scope): ignore them rather than reject.
  @UsePipes(new ValidationPipe({ whitelist: true, transform: true, exceptionFactory: (e) => new ValidationError(toErrorDetails(e)) }))
  @ApiOperation({ summary: 'Exchange a publishable key (or a login) for an access token' })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse({ type: OAuthErrorDto, description: 'OAuth 2.0 style failure, e.g. invalid_grant / invalid_publishable_key' })
  @ApiErrors(429)
  token(@Body() body: TokenRequestDto, @Req() request: FastifyRequest): Promise<TokenResponseDto> {
    if (!isGrantType(body.grant_type)) throw new TokenGrantError('unsupported_grant_type', `unsupported_grant_type: ${body.grant_type}`);
    if (body.grant_type === 'publishable_key') {
      return this.auth.exchangePublishableKey(body.publishable_key!, request.headers.origin, request.ip);
    }
    return this.auth.passwordLogin(body.username!, body.password!, body.agent_id, request.ip);
  }
}
