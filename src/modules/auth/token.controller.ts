import { Body, Controller, Header, HttpCode, Post, Req, UseFilters, UseGuards, UsePipes, ValidationPipe } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { ApiExampleBody } from '../../common/swagger/api-example-body.decorator.js';
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
  @ApiOperation({
    summary: 'Exchange a publishable key (or a login) for an access token',
    description:
      'No credential: the body is the credential. `publishable_key` gives a client token for the messaging API (agent-scoped); ' +
      '`password` gives a login session for the management API (with `agent_id`, messaging too). JSON or form-encoded. ' +
      'Exchange again before `expires_in` runs out. Failures use the OAuth 2.0 body `{ error, error_description }`, not the envelope.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiExampleBody(TokenRequestDto, {
    publishable_key: {
      summary: 'grant_type=publishable_key: a client token for messaging',
      value: { grant_type: 'publishable_key', publishable_key: 'pk_your_publishable_key' },
    },
    password: {
      summary: 'grant_type=password: a login session (management; messaging too with agent_id)',
      value: { grant_type: 'password', username: 'owner@example.com', password: 'your password' },
    },
  })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse({
    type: OAuthErrorDto,
    description: 'OAuth 2.0 style failure, e.g. invalid_grant / invalid_publishable_key',
    example: { error: 'invalid_grant', error_description: 'invalid_publishable_key' },
  })
  @ApiTooManyRequestsResponse({
    type: OAuthErrorDto,
    description: 'Rate limit reached (see Retry-After), in the OAuth body',
    example: { error: 'rate_limited', error_description: 'Rate limit reached; retry after 12 seconds' },
  })
  token(@Body() body: TokenRequestDto, @Req() request: FastifyRequest): Promise<TokenResponseDto> {
    if (!isGrantType(body.grant_type)) throw new TokenGrantError('unsupported_grant_type', `unsupported_grant_type: ${body.grant_type}`);
    if (body.grant_type === 'publishable_key') {
      return this.auth.exchangePublishableKey(body.publishable_key!, request.headers.origin, request.ip);
    }
    return this.auth.passwordLogin(body.username!, body.password!, body.agent_id, request.ip);
  }
}
