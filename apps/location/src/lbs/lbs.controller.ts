import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { CallerApp, LbsOperation, LbsSignatureGuard, type RegisteredApp } from '@geoaccount/signing';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiParams, ParamsPipe } from '@geoaccount/http';
import {
  ADDRESS_QUERY,
  type AddressQueryParams,
  BASE_STATION_QUERY,
  type BaseStationQueryParams,
  LBS_QUERY,
  type LbsQueryParams,
} from './dto/operation-params';
import { LbsOperationDoc } from './lbs.openapi';
import { type LbsReply, LbsService } from './lbs.service';

/** The three location operations (GET, `param.`-prefixed parameters, signed per docs/contract.md §3). */
@ApiTags('location')
@ApiQuery({
  name: 'userToken',
  required: true,
  description: 'App token (app- followed by hex)',
  schema: { type: 'string', maxLength: 40, pattern: '^app-[0-9a-fA-F]{1,36}$' },
})
@ApiQuery({
  name: 'signature',
  required: true,
  description: 'HMAC-SHA256 hex of the operation plaintext (docs/contract.md §3, docs/signing.md)',
  schema: { type: 'string', maxLength: 64, pattern: '^[0-9a-fA-F]{64}$' },
})
@Controller('lbsapi/api')
@UseGuards(LbsSignatureGuard)
export class LbsController {
  constructor(private readonly lbs: LbsService) {}

  @Get('lbsQuery')
  @LbsOperationDoc('lbsQuery', 'Coordinates to address', 'Reverse geocoding: the province, city, county and address at a point.')
  @LbsOperation('lbsQuery', ['longitude', 'latitude'])
  @ApiParams(LBS_QUERY)
  lbsQuery(@Query(new ParamsPipe(LBS_QUERY)) q: LbsQueryParams, @CallerApp() app: RegisteredApp): Promise<LbsReply> {
    return this.lbs.lbsQuery(q['param.longitude'], q['param.latitude'], app.appToken);
  }

  @Get('addressQuery')
  @LbsOperationDoc('addressQuery', 'Address to coordinates', 'Geocoding: the coordinates of a city and address, and the county-level code.')
  @LbsOperation('addressQuery', ['city', 'address'])
  @ApiParams(ADDRESS_QUERY)
  addressQuery(@Query(new ParamsPipe(ADDRESS_QUERY)) q: AddressQueryParams, @CallerApp() app: RegisteredApp): Promise<LbsReply> {
    return this.lbs.addressQuery(q['param.city'], q['param.address'], app.appToken);
  }

  @Get('baseStationQuery')
  @LbsOperationDoc(
    'baseStationQuery',
    'Base station to coordinates and address',
    'The position of a cell (mcc, mnc, lac, cellid) and the address there.',
  )
  @LbsOperation('baseStationQuery', ['mcc', 'mnc', 'lac', 'cellid'])
  @ApiParams(BASE_STATION_QUERY)
  baseStationQuery(@Query(new ParamsPipe(BASE_STATION_QUERY)) q: BaseStationQueryParams, @CallerApp() app: RegisteredApp): Promise<LbsReply> {
    return this.lbs.baseStationQuery(q['param.mcc'], q['param.mnc'], q['param.lac'], q['param.cellid'], app.appToken);
  }
}
