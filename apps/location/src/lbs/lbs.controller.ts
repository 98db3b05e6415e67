import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { LbsOperation, LbsSignatureGuard } from '@geoaccount/signing';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiParams, ParamsPipe } from './dto/lbs-params';
import {
  ADDRESS_QUERY,
  type AddressQueryParams,
  BASE_STATION_QUERY,
  type BaseStationQueryParams,
  LBS_QUERY,
  type LbsQueryParams,
} from './dto/operation-params';
import { type LbsAnswer, LbsService } from './lbs.service';

/** The three location operations (GET, `param.`-prefixed parameters, signed per CONTRACT §3). */
@ApiTags('location')
@ApiQuery({ name: 'userToken', required: true, description: 'App token (app- followed by hex)', schema: { maxLength: 40 } })
@ApiQuery({
  name: 'signature',
  required: true,
  description: 'HMAC-SHA256 hex of the operation plaintext (docs/location-api.md)',
  schema: { maxLength: 64 },
})
@ApiOkResponse({
  description: 'code "000"; lbsStat "1" computed, "2" from the cache. Failures: 400/401/404/503 with code "099"/"100", lbsStat "0".',
})
@Controller('lbsapi/api')
@UseGuards(LbsSignatureGuard)
export class LbsController {
  constructor(private readonly lbs: LbsService) {}

  @Get('lbsQuery')
  @ApiOperation({ summary: 'Coordinates to address' })
  @LbsOperation('lbsQuery', ['longitude', 'latitude'])
  @ApiParams(LBS_QUERY)
  lbsQuery(@Query(new ParamsPipe(LBS_QUERY)) q: LbsQueryParams): Promise<LbsAnswer> {
    return this.lbs.lbsQuery(q['param.longitude'], q['param.latitude']);
  }

  @Get('addressQuery')
  @ApiOperation({ summary: 'Address to coordinates' })
  @LbsOperation('addressQuery', ['city', 'address'])
  @ApiParams(ADDRESS_QUERY)
  addressQuery(@Query(new ParamsPipe(ADDRESS_QUERY)) q: AddressQueryParams): Promise<LbsAnswer> {
    return this.lbs.addressQuery(q['param.city'], q['param.address']);
  }

  @Get('baseStationQuery')
  @ApiOperation({ summary: 'Base station to coordinates and address' })
  @LbsOperation('baseStationQuery', ['mcc', 'mnc', 'lac', 'cellid'])
  @ApiParams(BASE_STATION_QUERY)
  baseStationQuery(@Query(new ParamsPipe(BASE_STATION_QUERY)) q: BaseStationQueryParams): Promise<LbsAnswer> {
    return this.lbs.baseStationQuery(q['param.mcc'], q['param.mnc'], q['param.lac'], q['param.cellid']);
  }
}
