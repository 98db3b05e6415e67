import { columnList, columnNames } from './column-list';

const metadata = {
  columns: [
    { databaseName: 'app_token', propertyName: 'appToken' },
    { databaseName: 'user_login_id', propertyName: 'userLoginId' },
  ],
};

describe('columnList', () => {
  it('lists every column under its property name', () => {
    expect(columnList(metadata)).toBe('"app_token" AS "appToken", "user_login_id" AS "userLoginId"');
  });

  it('qualifies the columns with the alias given', () => {
    expect(columnList(metadata, 'u')).toBe('"u"."app_token" AS "appToken", "u"."user_login_id" AS "userLoginId"');
  });
});

describe('columnNames', () => {
  it('maps each property to its column', () => {
    expect(columnNames(metadata).get('userLoginId')).toBe('user_login_id');
    expect(columnNames(metadata).get('nothing')).toBeUndefined();
  });
});
