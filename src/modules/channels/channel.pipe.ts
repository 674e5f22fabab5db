import { Injectable, type PipeTransform } from '@nestjs/common';
import { NotFoundError } from '../../common/errors/app-error.js';
import { isChannel, type Channel } from './channels.constants.js';

/** The `{channel}` path segment: `whatsapp` or `sms`; anything else names no resource (404 `not_found`). */
@Injectable()
export class ChannelPipe implements PipeTransform<string, Channel> {
  transform(value: string): Channel {
    if (!isChannel(value)) throw new NotFoundError(`Channel "${value}"`);
    return value;
  }
}
