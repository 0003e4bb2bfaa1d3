-- CreateTable
CREATE TABLE "OrganizationSso" (
    "organizationId" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "encryptedClientSecret" TEXT NOT NULL,
    "clientSecretHint" TEXT NOT NULL,
    "defaultRole" "Role" NOT NULL DEFAULT 'MEMBER',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrganizationSso_pkey" PRIMARY KEY ("organizationId")
);

-- CreateTable
CREATE TABLE "OrganizationSsoDomain" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "verificationToken" TEXT NOT NULL,
    "verifiedAt" TIMESTAMP(3),
    "verifiedDomain" TEXT,
    "lastCheckedAt" TIMESTAMP(3),
    "lastCheckError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrganizationSsoDomain_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "OrganizationSsoDomain_verifiedDomain_key" ON "OrganizationSsoDomain"("verifiedDomain");

-- CreateIndex
CREATE UNIQUE INDEX "OrganizationSsoDomain_organizationId_domain_key" ON "OrganizationSsoDomain"("organizationId", "domain");

-- AddForeignKey
ALTER TABLE "OrganizationSso" ADD CONSTRAINT "OrganizationSso_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrganizationSsoDomain" ADD CONSTRAINT "OrganizationSsoDomain_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "OrganizationSso"("organizationId") ON DELETE CASCADE ON UPDATE CASCADE;
